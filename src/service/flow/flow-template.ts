/**
 * GET /annotation/{type}: Laneway's lane template with Flow's `File` columns added (FLOW-WIRE.md
 * §4.2): a multiplexed upload links its reads to the sheet whose File cells name them.
 */
import { buildTemplate } from '../sheets/template-workbook';
import { loadVocabularies } from '../vocabularies/vocabularies';

export const FILE_COLUMNS = [
  { header: 'File', description: 'The multiplexed reads file (read 1) these rows come from, by its file name.' },
  { header: 'File 2', description: 'For paired reads: the read 2 file, by its file name. Leave empty for single-end.' },
];

/** The template's bytes. */
export async function flowTemplateBytes(): Promise<Buffer> {
  const wb = buildTemplate('lane', loadVocabularies());
  const fill = wb.worksheets[0]!;
  const header = fill.getRow(1);
  const first = header.cellCount + 1;
  FILE_COLUMNS.forEach((c, i) => {
    const cell = header.getCell(first + i);
    cell.value = c.header;
    cell.font = { bold: true };
    cell.note = c.description;
    fill.getColumn(first + i).width = 24;
  });
  header.commit();
  return Buffer.from(await wb.xlsx.writeBuffer());
}
