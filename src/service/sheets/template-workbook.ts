/**
 * The annotation templates (`GET /api/annotation/sample` and `/lane`): real xlsx workbooks a
 * technician fills in. The first sheet is the one to fill: headers with the required ones
 * marked (" *", bold, coloured, with a note), list validation for Organism and Category from
 * the vocabularies, and a length rule for names. Further sheets: example rows, a description
 * and validation rule for every column, and the lists themselves. The examples sit on their own
 * sheet so that a filled-in template never carries them into a lane by accident.
 */
import ExcelJS from 'exceljs';
import type { MetadataField, Vocabularies } from '../vocabularies/vocabularies';

export type TemplateKind = 'sample' | 'lane';

/** Rows of the fill-in sheet that carry validation. */
const VALIDATED_ROWS = 1000;
const REQUIRED_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFCE4B6' } };
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE7EEF7' } };

/** The template's columns in order: required first, then the optional metadata fields. */
export function templateFields(kind: TemplateKind, vocab: Vocabularies): MetadataField[] {
  const usable = vocab.fields.filter((f) => kind === 'lane' || !f.lane_only);
  return [...usable.filter((f) => f.required), ...usable.filter((f) => !f.required)];
}

/** The header text of a field: required ones end in " *". */
export function headerOf(field: MetadataField): string {
  return field.required ? `${field.label} *` : field.label;
}

const EXAMPLES: Array<Record<string, string>> = [
  {
    name: 'liver_ctrl_1',
    barcode: 'ACGTACGT',
    organism: 'Homo sapiens',
    category: 'Total RNA',
    tissue: 'liver',
    condition: 'control',
    replicate: '1',
  },
  {
    name: 'liver_treated_1',
    barcode: 'TGCATGCA',
    organism: 'Homo sapiens',
    category: 'Total RNA',
    tissue: 'liver',
    condition: 'treated',
    treatment: 'DMSO 0.1%',
    replicate: '1',
  },
  {
    name: 'brain_ctrl_1',
    barcode: 'GATCCTAG',
    organism: 'Mus musculus',
    category: 'mRNA',
    tissue: 'brain',
    condition: 'control',
    sex: 'female',
    replicate: '1',
  },
];

function columnLetter(index: number): string {
  let n = index;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

function styleHeader(sheet: ExcelJS.Worksheet, fields: MetadataField[]): void {
  const header = sheet.getRow(1);
  fields.forEach((f, i) => {
    const cell = header.getCell(i + 1);
    cell.value = headerOf(f);
    cell.font = { bold: true, color: f.required ? { argb: 'FF9C2500' } : undefined };
    cell.fill = f.required ? REQUIRED_FILL : HEADER_FILL;
    cell.note = `${f.required ? 'Required. ' : ''}${f.description} Rule: ${f.rule}.`;
    sheet.getColumn(i + 1).width = Math.max(14, headerOf(f).length + 4);
  });
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
}

/** Builds the template workbook of the given kind. */
export function buildTemplate(kind: TemplateKind, vocab: Vocabularies): ExcelJS.Workbook {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Laneway';
  wb.created = new Date(0);
  const fields = templateFields(kind, vocab);
  const fill = wb.addWorksheet(kind === 'lane' ? 'Lane' : 'Samples');
  const examples = wb.addWorksheet('Examples');
  const descriptions = wb.addWorksheet('Field descriptions');
  const lists = wb.addWorksheet('Lists');

  styleHeader(fill, fields);
  styleHeader(examples, fields);
  const rows = kind === 'lane' ? EXAMPLES : EXAMPLES.slice(0, 2);
  for (const ex of rows) examples.addRow(fields.map((f) => ex[f.key] ?? ''));

  lists.getCell('A1').value = 'Organisms';
  lists.getCell('B1').value = 'Categories';
  lists.getRow(1).font = { bold: true };
  vocab.organisms.forEach((o, i) => (lists.getCell(`A${i + 2}`).value = o.name));
  vocab.categories.forEach((c, i) => (lists.getCell(`B${i + 2}`).value = c.name));
  lists.getColumn(1).width = 28;
  lists.getColumn(2).width = 20;
  const listRange = {
    organisms: `Lists!$A$2:$A$${vocab.organisms.length + 1}`,
    categories: `Lists!$B$2:$B$${vocab.categories.length + 1}`,
  };

  fields.forEach((f, i) => {
    const letter = columnLetter(i + 1);
    const range = `${letter}2:${letter}${VALIDATED_ROWS + 1}`;
    let rule: ExcelJS.DataValidation | null = null;
    if (f.vocabulary) {
      rule = {
        type: 'list',
        allowBlank: !f.required,
        formulae: [listRange[f.vocabulary]],
        showErrorMessage: true,
        errorTitle: `Unknown ${f.label}`,
        error: `Choose a value from the ${f.vocabulary} list (sheet Lists).`,
      };
    } else if (f.key === 'name') {
      rule = {
        type: 'textLength',
        operator: 'between',
        allowBlank: false,
        formulae: [1, 100],
        showErrorMessage: true,
        error: 'Sample names have 1-100 characters.',
      };
    } else if (f.type === 'integer') {
      rule = {
        type: 'whole',
        operator: 'greaterThanOrEqual',
        allowBlank: true,
        formulae: [1],
        showErrorMessage: true,
        error: `${f.label} is a whole number from 1.`,
      };
    }
    if (rule) (fill as ExcelJS.Worksheet & { dataValidations: DataValidations }).dataValidations.add(range, rule);
  });

  descriptions.columns = [
    { header: 'Column', key: 'column', width: 18 },
    { header: 'Required', key: 'required', width: 10 },
    { header: 'Description', key: 'description', width: 70 },
    { header: 'Validation rule', key: 'rule', width: 60 },
    { header: 'Example', key: 'example', width: 18 },
  ];
  descriptions.getRow(1).font = { bold: true };
  for (const f of fields) {
    descriptions.addRow({
      column: headerOf(f),
      required: f.required ? 'yes' : 'no',
      description: f.description,
      rule: f.rule,
      example: f.example,
    });
  }
  descriptions.addRow({});
  descriptions.addRow({
    column: 'Note',
    description:
      'Columns marked * are required. Add further metadata columns freely: each becomes a metadata field of the sample.',
  });
  if (kind === 'lane') {
    descriptions.addRow({
      column: 'Barcodes',
      description:
        'Inline barcodes may include UMI positions: give the layout (N = UMI base, X = barcode base, e.g. NNNXXXXXXNN) with the upload; the Barcode column holds the X part only. Barcodes closer than 3 differences, shorter than 6 bases, or reverse complements of each other give warnings.',
    });
  }
  return wb;
}

interface DataValidations {
  add(range: string, rule: ExcelJS.DataValidation): void;
}

/** The template as xlsx bytes. */
export async function templateBytes(kind: TemplateKind, vocab: Vocabularies): Promise<Buffer> {
  const wb = buildTemplate(kind, vocab);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
