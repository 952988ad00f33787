/**
 * Issue 19 item 5: Illumina sample sheets used as lane sheets, on sheets written as Illumina's
 * sheet formats lay them out (test/fixtures/instruments/illumina-runs.ts: v1 `[Data]` after a
 * long [Header], v2 `[BCLConvert_Data]`): the sample table is found wherever it starts, `index`
 * and `index2` make one dual-index barcode `i7+i5`, Lane and Sample_Project are kept as
 * metadata, and Organism and Category come from the lab's own columns.
 */
import { describe, expect, it } from 'vitest';
import { toEntries, validateAnnotation } from '../../../src/shared/annotation';
import { annotationTable, gridOfDelimited, readDelimitedFile } from '../../../src/shared/sheets';
import { readSheet } from '../../../src/service/sheets/sheet-reader';
import { SHEET_SAMPLES, sheetV1, sheetV2 } from '../../fixtures/instruments/illumina-runs';

const table = (text: string) => annotationTable('csv', gridOfDelimited(readDelimitedFile(Buffer.from(text)).rows));

describe('Illumina sample sheets as lane sheets', () => {
  it('v1: [Data] past row 10, Sample_ID names the sample, index+index2 one barcode, lanes merged, lab columns read', () => {
    const text = sheetV1(2);
    expect(text.split('\r\n').findIndex((l) => l === '[Data]')).toBeGreaterThan(10);
    const t = table(text);
    expect(t.headerRow).toBe(text.split('\r\n').findIndex((l) => l === '[Data]') + 2);
    const entries = toEntries(t.rows);
    expect(entries.map((e) => [e.sampleName, e.barcode, e.organism, e.category])).toEqual(
      SHEET_SAMPLES.map((s) => [s.id, `${s.index}+${s.index2}`, s.organism, s.category]),
    );
    expect(entries[0]!.metadata).toMatchObject({
      Lane: '1+2',
      Sample_Project: 'Hepato',
      Sample_Name: 'Liver_1',
      I7_Index_ID: 'D701',
      organism: 'Homo sapiens',
      category: 'DNA',
    });
    const report = validateAnnotation(t.rows, {}, { kind: 'lane', headers: t.headers });
    expect(report.errors).toEqual([]);
    expect(report.design).toMatchObject({ dual: true });
    expect(report.design!.barcodes.map((b) => b.sample)).toEqual(['S1', 'S2']);
  });

  it('v2: [BCLConvert_Data] with Index and Index2; without Organism and Category columns the sheet says which are missing', () => {
    const t = table(sheetV2(1, 'NextSeq1k2k'));
    expect(toEntries(t.rows).map((e) => [e.sampleName, e.barcode, e.metadata.Sample_Project])).toEqual(
      SHEET_SAMPLES.map((s) => [s.id, `${s.index}+${s.index2}`, s.project]),
    );
    const report = validateAnnotation(t.rows, {}, { kind: 'lane', headers: t.headers });
    expect(report.errors.map((e) => e.message).sort()).toEqual([
      'The sheet has no "Category" column',
      'The sheet has no "Organism" column',
    ]);
  });

  it('the service and CLI reader take the same sheet, and rows after the next section are not samples', async () => {
    const text = `${sheetV1(1)}\r\n[Cloud_Data]\r\nSample_ID,ProjectName\r\nS1,Other\r\n`;
    const read = await readSheet(Buffer.from(text), 'SampleSheet.csv');
    expect(read.rows.map((r) => r.values.Sample_ID)).toEqual(['S1', 'S2']);
    expect(read.headers).toContain('index2');
  });
});
