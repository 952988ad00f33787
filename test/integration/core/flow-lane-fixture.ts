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
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Samples');
  ws.addRow(['Sample Name', 'Barcode', 'Organism', 'Category']);
  const cells = gen.samples.map((s) => s.cell);
  const sheetCells = barcodes ? barcodes(cells) : cells;
  gen.samples.forEach((s, i) => ws.addRow([`${name}_${s.name}`, sheetCells[i], 'Homo sapiens', 'Total RNA']));
  const xlsx = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
  return { name, file: gen.read1, read2: gen.read2!, annotation_xlsx: xlsx };
}
