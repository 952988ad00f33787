/**
 * A lane's sheet as a Flow server links it to its reads (FLOW-WIRE.md §4.2): Flow matches a
 * multiplexed upload to the sheet whose `File` cells name the reads file. Laneway's sheets
 * (the Lane screen's .xlsx, a lab's CSV) have no File column, so the desktop adds one naming
 * read 1; a sheet that names its files already goes as it is.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sheetForFlow, sheetSamples } from '../../../src/main/core/service-client/flow/flow-lanes';

const R1 = 'lane7_R1.fastq.gz';

describe('a lane sheet sent to a Flow server', () => {
  it('a CSV without File gets the column, naming read 1 on every row, cells with commas and quotes kept', async () => {
    const csv = 'Sample Name,Barcode,Notes\r\nliver-1,ACGTAC,"fresh, frozen"\r\nliver-2,TTGGCA,"the ""good"" one"\r\n';
    const out = await sheetForFlow(Buffer.from(csv), R1);
    expect(out).not.toBeNull();
    const text = out!.toString();
    expect(text.split('\r\n')[0]).toBe('Sample Name,Barcode,Notes,File');
    expect(text).toContain(`liver-1,ACGTAC,"fresh, frozen",${R1}`);
    expect(text).toContain(`liver-2,TTGGCA,"the ""good"" one",${R1}`);
    // Read back as the service reads sheets: the same samples and barcodes.
    expect(await sheetSamples(out!)).toEqual([
      { name: 'liver-1', barcode: 'ACGTAC' },
      { name: 'liver-2', barcode: 'TTGGCA' },
    ]);
  });

  it('an .xlsx as the Lane screen saves it goes as CSV with File', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Samples');
    ws.addRow(['Sample Name', 'Barcode', 'Organism']);
    ws.addRow(['S1', 'AAACCC', 'Homo sapiens']);
    ws.addRow(['S2', 'GGGTTT', 'Homo sapiens']);
    const out = await sheetForFlow(Buffer.from(await wb.xlsx.writeBuffer()), R1);
    expect(out!.toString().split('\r\n').slice(0, 3)).toEqual([
      'Sample Name,Barcode,Organism,File',
      `S1,AAACCC,Homo sapiens,${R1}`,
      `S2,GGGTTT,Homo sapiens,${R1}`,
    ]);
  });

  it('a sheet that has a File column is sent unchanged', async () => {
    const csv = `Sample Name,Barcode,File\r\nS1,AAACCC,${R1}\r\n`;
    expect(await sheetForFlow(Buffer.from(csv), 'other.fastq.gz')).toBeNull();
  });
});
