/**
 * The annotation sheet's column model: the named columns of the spec (Sample Name, Barcode,
 * Organism, Category) and every other header as a metadata column. Headers are matched without
 * regard to case, spacing, underscores or a required-marker (`*`, "(required)"), so that the
 * template, a hand-made sheet and a CSV export all read the same.
 */

/** One data row of a sheet as read: `row` is the row number the sheet shows (header = row 1). */
export interface AnnotationRow {
  row: number;
  /** Cell text keyed by the header exactly as the sheet writes it. */
  values: Record<string, string>;
}

/** One problem in a sheet, placed where a technician can find it. */
export interface Issue {
  row: number;
  column: string;
  message: string;
}

export const SAMPLE_NAME = 'Sample Name';
export const BARCODE = 'Barcode';
export const ORGANISM = 'Organism';
export const CATEGORY = 'Category';

/** The columns the spec names, in template order. */
export const NAMED_COLUMNS = [SAMPLE_NAME, BARCODE, ORGANISM, CATEGORY] as const;
export type NamedColumn = (typeof NAMED_COLUMNS)[number];

/** Columns a sheet of the given kind must have. */
export function requiredColumns(kind: 'lane' | 'sample'): NamedColumn[] {
  return kind === 'lane' ? [SAMPLE_NAME, BARCODE, ORGANISM, CATEGORY] : [SAMPLE_NAME, ORGANISM, CATEGORY];
}

/** The comparison form of a header: lower case, no spaces, underscores, dashes or required marks. */
export function normalizeHeader(header: string): string {
  return header
    .toLowerCase()
    .replace(/\(required\)/g, '')
    .replace(/[\s_\-*]+/g, '');
}

const NAMED_BY_KEY = new Map<string, NamedColumn>(NAMED_COLUMNS.map((c) => [normalizeHeader(c), c]));
// Common spellings of the same columns in sheets made by hand or exported by other tools.
NAMED_BY_KEY.set('sample', SAMPLE_NAME);
NAMED_BY_KEY.set('samplename', SAMPLE_NAME);
NAMED_BY_KEY.set('sampleid', SAMPLE_NAME);
NAMED_BY_KEY.set('index', BARCODE);
NAMED_BY_KEY.set('barcodesequence', BARCODE);
NAMED_BY_KEY.set('species', ORGANISM);
NAMED_BY_KEY.set('sampletype', CATEGORY);

/**
 * Illumina's second index column (`index2` in v1 sheets, `Index2` in v2): the i5 half of a
 * dual-index barcode, joined to the Barcode column's i7 as `i7+i5` (as the reads' headers carry
 * it). Its orientation is left to the demultiplexer's detection from the reads.
 */
export function isSecondIndex(header: string): boolean {
  return normalizeHeader(header) === 'index2';
}

/** The named column a header stands for, or null for a metadata column. */
export function namedColumn(header: string): NamedColumn | null {
  return NAMED_BY_KEY.get(normalizeHeader(header)) ?? null;
}

/** A row with its named columns resolved and the rest as metadata. */
export interface AnnotationEntry {
  row: number;
  sampleName: string;
  barcode: string;
  organism: string;
  category: string;
  /** Metadata columns by their header as written; empty cells left out. */
  metadata: Record<string, string>;
}

/** Where each named column sits among the headers (the header text as written), if present. */
export function locateColumns(headers: readonly string[]): Partial<Record<NamedColumn, string>> {
  const found: Partial<Record<NamedColumn, string>> = {};
  for (const h of headers) {
    const named = namedColumn(h);
    if (named && !found[named]) found[named] = h;
  }
  return found;
}

/** Resolves rows into entries: trimmed named values and metadata (organism and category stay metadata too). */
export function toEntries(rows: readonly AnnotationRow[]): AnnotationEntry[] {
  return rows.map((r) => {
    const entry: AnnotationEntry = {
      row: r.row,
      sampleName: '',
      barcode: '',
      organism: '',
      category: '',
      metadata: {},
    };
    let i5 = '';
    for (const [header, raw] of Object.entries(r.values)) {
      const value = (raw ?? '').trim();
      const named = namedColumn(header);
      if (isSecondIndex(header)) i5 ||= value.toUpperCase().replace(/\s+/g, '');
      // Sample_ID and Sample_Name both name a sample: the first names it, the other is kept.
      else if (named === SAMPLE_NAME && entry.sampleName && value) entry.metadata[header.trim()] = value;
      else if (named === SAMPLE_NAME) entry.sampleName ||= value;
      else if (named === BARCODE) entry.barcode ||= value.toUpperCase().replace(/\s+/g, '');
      else if (named === ORGANISM) entry.organism ||= value;
      else if (named === CATEGORY) entry.category ||= value;
      else if (value) entry.metadata[header.trim()] = value;
    }
    if (i5 && entry.barcode && !entry.barcode.includes('+')) entry.barcode = `${entry.barcode}+${i5}`;
    if (entry.organism) entry.metadata[ORGANISM.toLowerCase()] = entry.organism;
    if (entry.category) entry.metadata[CATEGORY.toLowerCase()] = entry.category;
    return entry;
  });
}

/** Headers seen across rows, in first-seen order. */
export function headersOf(rows: readonly AnnotationRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const h of Object.keys(r.values)) seen.add(h);
  return [...seen];
}
