/**
 * A paired lane of inline barcodes (GBS, generateDesignLane) with its sheet as the Lane screen
 * builds it (.xlsx: Sample Name, Barcode, Organism, Category), for the Flow profile's lane tests.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generateDesignLane } from '../../helpers/design-lane-generator';

/** `barcodes` may change the sheet's barcodes (a sheet with errors), from the generated ones. */
export async function makeFlowLane(
  parent: string,
  name: string,
  seed: number,
  barcodes?: (cells: string[]) => string[],
) {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  const gen = generateDesignLane({ kind: 'gbs', reads: 3000, samples: 3, paired: true, seed, dir });
  const cells = gen.samples.map((s) => s.cell);
  const sheetCells = barcodes ? barcodes(cells) : cells;
  const xlsx = await laneSheetXlsx(gen.samples.map((s, i) => [`${name}_${s.name}`, sheetCells[i]!]));
  return { name, file: gen.read1, read2: gen.read2!, annotation_xlsx: xlsx };
}

/**
 * A sheet as the Lane screen builds it (.xlsx, base64): Sample Name and Barcode from `rows`,
 * every sample Homo sapiens, Total RNA.
 */
export async function laneSheetXlsx(rows: Array<[name: string, barcode: string]>): Promise<string> {
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Samples');
  ws.addRow(['Sample Name', 'Barcode', 'Organism', 'Category']);
  for (const [name, barcode] of rows) ws.addRow([name, barcode, 'Homo sapiens', 'Total RNA']);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}
