import { describe, expect, it } from 'vitest';
import { parseSampleSheet } from '../../../src/main/core/runs/sample-sheet';

describe('Illumina sample sheets through the shared delimited reader', () => {
  it('reads a v1 sheet as Excel saves it: BOM, CRLF, padded section rows, a quoted multi-line description', () => {
    // Layout: Illumina "Sample Sheet v1" ([Header], [Reads], [Settings], [Data]); Excel pads every
    // row to the widest one with commas and quotes a cell holding a line break.
    const sheet =
      '\ufeff[Header],,,,\r\nIEMFileVersion,4,,,\r\nDescription,"pilot run\r\nsecond line, with a comma",,,\r\n' +
      ',,,,\r\n[Reads],,,,\r\n151,,,,\r\n[Data],,,,\r\nLane,Sample_ID,Sample_Name,Sample_Project,index\r\n' +
      '1,S1,"liver, ctrl",P1,ACGT\r\n2,S2,brain,P1,TTGA\r\n';
    expect(parseSampleSheet(sheet)).toEqual({
      version: 1,
      adapters: null,
      samples: [
        {
          id: 'S1',
          name: 'liver, ctrl',
          project: 'P1',
          lane: 1,
          index: 'ACGT',
          index2: null,
          organism: null,
          category: null,
        },
        {
          id: 'S2',
          name: 'brain',
          project: 'P1',
          lane: 2,
          index: 'TTGA',
          index2: null,
          organism: null,
          category: null,
        },
      ],
    });
  });

  it('reads a v2 sheet saved with semicolons by a European Excel', () => {
    const v2 =
      '[Header];;\nFileFormatVersion;2;\n[BCLConvert_Data];;\nLane;Sample_ID;Index\n2;B1;ACGT\n[Cloud_Data];;\nSample_ID;ProjectName;\nB1;Proj;\n';
    expect(parseSampleSheet(v2)).toEqual({
      version: 2,
      adapters: null,
      samples: [
        { id: 'B1', name: 'B1', project: 'Proj', lane: 2, index: 'ACGT', index2: null, organism: null, category: null },
      ],
    });
  });

  it('answers null, not an exception, for text that is not a readable sheet', () => {
    expect(parseSampleSheet('[Data]\nSample_ID\n"never closed\n')).toBeNull();
    expect(parseSampleSheet('just text')).toBeNull();
  });
});
