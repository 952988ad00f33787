/**
 * The rules of an annotation sheet. Errors stop a lane (INVALID_ANNOTATION); warnings need the
 * technician's consent (ANNOTATION_WARNINGS unless ignore_warnings). Each issue names its row
 * (as the sheet shows it, header = row 1) and column, and for barcode collisions the pair, the
 * distance and a fix.
 */
import { barcodeDistance, maxSafeMismatches, reverseComplement } from './barcodes';
import {
  BARCODE,
  CATEGORY,
  ORGANISM,
  SAMPLE_NAME,
  headersOf,
  locateColumns,
  requiredColumns,
  toEntries,
  type AnnotationEntry,
  type AnnotationRow,
  type Issue,
} from './columns';
import { resolveDesign, type BarcodeDesign } from './design';
import { fileNameProblem } from './names';

/** Allowed values of the vocabulary columns; an absent or empty list is not checked. */
export interface AnnotationVocabulary {
  organisms?: readonly string[];
  categories?: readonly string[];
}

export interface AnnotationOptions {
  kind: 'lane' | 'sample';
  /** Mismatches the demultiplexer will allow; absent: the largest safe count, at most 1. */
  mismatches?: number;
  /** Inline layout such as `NNNXXXXXNN` when the Barcode column holds only the X part. */
  layout?: string;
  /** The sheet's headers, so that missing columns are found even in a sheet without rows. */
  headers?: readonly string[];
}

export interface AnnotationReport {
  errors: Issue[];
  warnings: Issue[];
  entries: AnnotationEntry[];
  /** The barcode design of a lane sheet (null for sample sheets or when no barcode is usable). */
  design: BarcodeDesign | null;
  /** Mismatches the demultiplexer should allow. */
  mismatches: number;
}

/** Barcodes shorter than this get a warning: few bases leave little room between samples. */
export const SHORT_BARCODE = 6;
/** Barcodes closer than this get a warning: one sequencing error away from a wrong sample. */
export const COMFORTABLE_DISTANCE = 3;
/** The demultiplexer tolerates at most this many mismatches. */
export const MAX_MISMATCHES = 1;

/** Validates a sheet's rows against the rules and the vocabularies. */
export function validateAnnotation(
  rows: readonly AnnotationRow[],
  vocabulary: AnnotationVocabulary,
  options: AnnotationOptions,
): AnnotationReport {
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  const entries = toEntries(rows);
  const located = locateColumns(options.headers ?? headersOf(rows));
  const required = requiredColumns(options.kind);
  const missing = required.filter((c) => !located[c]);
  for (const c of missing) errors.push({ row: 1, column: c, message: `The sheet has no "${c}" column` });
  if (rows.length === 0) errors.push({ row: 2, column: SAMPLE_NAME, message: 'The sheet has no sample rows' });

  const valueOf: Record<string, (e: AnnotationEntry) => string> = {
    [SAMPLE_NAME]: (e) => e.sampleName,
    [BARCODE]: (e) => e.barcode,
    [ORGANISM]: (e) => e.organism,
    [CATEGORY]: (e) => e.category,
  };
  for (const e of entries) {
    for (const c of required) {
      if (!missing.includes(c) && !valueOf[c]?.(e)) errors.push({ row: e.row, column: c, message: `${c} is required` });
    }
  }
  checkNames(entries, errors);
  checkVocabulary(entries, vocabulary, errors);

  let design: BarcodeDesign | null = null;
  let mismatches = options.mismatches ?? 0;
  if (options.kind === 'lane') {
    const resolved = resolveDesign(entries, options.layout);
    errors.push(...resolved.errors);
    design = resolved.design;
    if (design) mismatches = checkBarcodes(design, options.mismatches, errors, warnings);
  }
  const byPosition = (a: Issue, b: Issue) => a.row - b.row || a.column.localeCompare(b.column);
  return { errors: errors.sort(byPosition), warnings: warnings.sort(byPosition), entries, design, mismatches };
}

function checkNames(entries: readonly AnnotationEntry[], errors: Issue[]): void {
  const firstRow = new Map<string, number>();
  for (const e of entries) {
    if (!e.sampleName) continue;
    const problem = fileNameProblem(e.sampleName);
    if (problem) errors.push({ row: e.row, column: SAMPLE_NAME, message: `Sample name "${e.sampleName}" ${problem}` });
    // Case-insensitive: the files of two such samples collide on macOS and Windows.
    const key = e.sampleName.toLowerCase();
    const first = firstRow.get(key);
    if (first !== undefined) {
      errors.push({ row: e.row, column: SAMPLE_NAME, message: `Sample name "${e.sampleName}" repeats row ${first}` });
    } else firstRow.set(key, e.row);
  }
}

function checkVocabulary(entries: readonly AnnotationEntry[], vocabulary: AnnotationVocabulary, errors: Issue[]): void {
  const check = (column: string, allowed: readonly string[] | undefined, value: (e: AnnotationEntry) => string) => {
    if (!allowed?.length) return;
    const known = new Set(allowed.map((a) => a.trim().toLowerCase()));
    const hint = allowed.slice(0, 5).join(', ') + (allowed.length > 5 ? ', …' : '');
    for (const e of entries) {
      const v = value(e);
      if (v && !known.has(v.toLowerCase())) {
        errors.push({ row: e.row, column, message: `${column} "${v}" is not in the vocabulary (${hint})` });
      }
    }
  };
  check(ORGANISM, vocabulary.organisms, (e) => e.organism);
  check(CATEGORY, vocabulary.categories, (e) => e.category);
}

/** Checks duplicates, distances and reverse complements; returns the mismatches to allow. */
function checkBarcodes(
  design: BarcodeDesign,
  requested: number | undefined,
  errors: Issue[],
  warnings: Issue[],
): number {
  const list = design.barcodes;
  const seen = new Map<string, number>();
  const unique: typeof list = [];
  for (const b of list) {
    const first = seen.get(b.barcode);
    if (first !== undefined) {
      errors.push({ row: b.row, column: BARCODE, message: `Barcode ${b.barcode} repeats row ${first}` });
    } else {
      seen.set(b.barcode, b.row);
      unique.push(b);
    }
  }
  const partLength = design.dual ? Math.min(...design.barcodes[0]!.barcode.split('+').map((p) => p.length)) : 0;
  if (design.barcodeLength < SHORT_BARCODE || (design.dual && partLength < SHORT_BARCODE)) {
    warnings.push({
      row: list[0]!.row,
      column: BARCODE,
      message: `Barcodes of ${design.dual ? partLength : design.barcodeLength} bases are short (fewer than ${SHORT_BARCODE}): reads of different samples are easily confused`,
    });
  }
  let minDistance = Infinity;
  const pairs: Array<{ a: (typeof list)[number]; b: (typeof list)[number]; d: number }> = [];
  for (let i = 0; i < unique.length; i++) {
    for (let j = i + 1; j < unique.length; j++) {
      const a = unique[i]!;
      const b = unique[j]!;
      const d = barcodeDistance(a.barcode, b.barcode);
      minDistance = Math.min(minDistance, d);
      pairs.push({ a, b, d });
      if (reverseComplement(a.barcode) === b.barcode) {
        warnings.push({
          row: b.row,
          column: BARCODE,
          message: `Barcode ${b.barcode} is the reverse complement of ${a.barcode} (row ${a.row}): check the index orientation`,
        });
      }
    }
  }
  const safe = Math.min(MAX_MISMATCHES, maxSafeMismatches(minDistance));
  if (requested !== undefined && (requested < 0 || requested > MAX_MISMATCHES || !Number.isInteger(requested))) {
    errors.push({ row: 1, column: BARCODE, message: `Mismatches must be 0 or ${MAX_MISMATCHES}, not ${requested}` });
    return safe;
  }
  const mismatches = requested ?? safe;
  const separable = 2 * mismatches + 1;
  for (const { a, b, d } of pairs) {
    const name = `Barcodes ${a.barcode} (row ${a.row}, ${a.sample}) and ${b.barcode} (row ${b.row}, ${b.sample})`;
    if (d < separable) {
      errors.push({
        row: b.row,
        column: BARCODE,
        message: `${name} are ${d} apart: with ${mismatches} mismatch${mismatches === 1 ? '' : 'es'} allowed a read could match both. Allow ${maxSafeMismatches(d)} mismatches or change one barcode to differ in at least ${separable} positions`,
      });
    } else if (d < COMFORTABLE_DISTANCE) {
      warnings.push({
        row: b.row,
        column: BARCODE,
        message: `${name} are only ${d} apart: mismatches cannot be tolerated, and a sequencing error can move a read to the wrong sample. Prefer barcodes at least ${COMFORTABLE_DISTANCE} apart`,
      });
    }
  }
  return mismatches;
}
