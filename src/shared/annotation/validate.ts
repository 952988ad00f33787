/**
 * The rules of an annotation sheet. Errors stop a lane (INVALID_ANNOTATION); warnings need the
 * technician's consent (ANNOTATION_WARNINGS unless ignore_warnings). Each issue names its row
 * (as the sheet shows it, header = row 1) and column, and for barcode collisions the pair, the
 * distance and a fix.
 */
import { MAX_MISMATCHES, maxSafeMismatches, partDistance, reverseComplement } from './barcodes';
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
import { resolveDesign, type BarcodeDesign, type BarcodePart } from './design';
import { fileNameProblem } from './names';

/** Allowed values of the vocabulary columns; an absent or empty list is not checked. */
export interface AnnotationVocabulary {
  organisms?: readonly string[];
  categories?: readonly string[];
}

export interface AnnotationOptions {
  kind: 'lane' | 'sample';
  /**
   * Mismatches the demultiplexer will allow, one count for every segment or one per segment
   * (i7 and i5, or 5' and 3'); absent: the largest safe count, at most 1.
   */
  mismatches?: number | readonly number[];
  /** Inline layout such as `NNNXXXXXNN` (or `...XXXXXXNNNN`, `NNNXXXXXNN...XXXXXXNNNN`) when the Barcode column holds only the X part. */
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
  /** Mismatches the demultiplexer should allow: the largest over the segments. */
  mismatches: number;
  /** Mismatches per segment of the design (i7, i5 or 5', 3'). */
  segmentMismatches: number[];
  /** The most mismatches each segment's barcode distances allow (at most MAX_MISMATCHES). */
  maxMismatches: number[];
}

/** Barcodes shorter than this get a warning: few bases leave little room between samples. */
export const SHORT_BARCODE = 6;
/** Barcodes closer than this get a warning: one sequencing error away from a wrong sample. */
export const COMFORTABLE_DISTANCE = 3;
export { MAX_MISMATCHES };
/** Mismatches allowed when none are asked for: the largest safe count, but at most this. */
export const DEFAULT_MAX_MISMATCHES = 1;

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
  let checked = { mismatches: [] as number[], max: [] as number[] };
  if (options.kind === 'lane') {
    const resolved = resolveDesign(entries, options.layout);
    errors.push(...resolved.errors);
    design = resolved.design;
    if (design) checked = checkBarcodes(design, options.mismatches, errors, warnings);
  }
  const byPosition = (a: Issue, b: Issue) => a.row - b.row || a.column.localeCompare(b.column);
  return {
    errors: errors.sort(byPosition),
    warnings: warnings.sort(byPosition),
    entries,
    design,
    mismatches: Math.max(0, ...checked.mismatches),
    segmentMismatches: checked.mismatches,
    maxMismatches: checked.max,
  };
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

/** Names of a design's segments in messages. */
const SEGMENT_WORDS: Record<string, string> = {
  "5'": "5' barcodes",
  "3'": "3' barcodes",
  i7: 'i7 indexes',
  i5: 'i5 indexes',
};

/**
 * Checks duplicates, distances (per segment: two samples may share an i7 or a 5' barcode when
 * the other segment tells them apart) and reverse complements; returns the mismatches to allow
 * and the most each segment allows.
 */
function checkBarcodes(
  design: BarcodeDesign,
  requested: number | readonly number[] | undefined,
  errors: Issue[],
  warnings: Issue[],
): { mismatches: number[]; max: number[] } {
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
  const shortest = Math.min(...list.flatMap((b) => b.parts.map((p) => p.bases.length)));
  if (shortest < SHORT_BARCODE) {
    warnings.push({
      row: list.find((b) => b.parts.some((p) => p.bases.length === shortest))!.row,
      column: BARCODE,
      message: `Barcodes of ${shortest} bases are short (fewer than ${SHORT_BARCODE}): reads of different samples are easily confused`,
    });
  }
  if (design.segments.length === 1) {
    // Reverse complements through a lookup, not a comparison of every pair (sheets of 2,000 rows).
    const firstOf = new Map<string, (typeof unique)[number]>();
    for (const b of unique) {
      const a = firstOf.get(reverseComplement(b.parts[0]!.bases));
      if (a && a.row < b.row) {
        warnings.push({
          row: b.row,
          column: BARCODE,
          message: `Barcode ${b.barcode} is the reverse complement of ${a.barcode} (row ${a.row}): check the index orientation`,
        });
      }
      if (!firstOf.has(b.parts[0]!.bases)) firstOf.set(b.parts[0]!.bases, b);
    }
  }
  const asked = requested === undefined ? undefined : typeof requested === 'number' ? [requested] : [...requested];
  const bad = asked?.find((m) => !Number.isInteger(m) || m < 0 || m > MAX_MISMATCHES);
  if (asked && (bad !== undefined || asked.length === 0 || asked.length > design.segments.length)) {
    errors.push({
      row: 1,
      column: BARCODE,
      message: `Mismatches must be 0 to ${MAX_MISMATCHES}${design.segments.length > 1 ? `, one count or one per ${design.segments.join(' and ')}` : ''}, not ${asked.join(',')}`,
    });
  }
  const mismatches: number[] = [];
  const max: number[] = [];
  design.segments.forEach((segment, s) => {
    // Distinct barcodes of this segment, each with the first row that uses it.
    const parts = new Map<string, { part: BarcodePart; row: number; sample: string }>();
    for (const b of unique) {
      const p = b.parts[s]!;
      const key = `${p.layout}:${p.bases}`;
      if (!parts.has(key)) parts.set(key, { part: p, row: b.row, sample: b.sample });
    }
    const distinct = [...parts.values()];
    const fromEnd = segment === "3'";
    // Same layout: plain Hamming distance on the bases; otherwise where the layouts overlap.
    const distance = (a: BarcodePart, b: BarcodePart) => {
      if (a.layout !== b.layout) return partDistance(a, b, fromEnd);
      let d = 0;
      for (let k = 0; k < a.bases.length; k++) if (a.bases.charCodeAt(k) !== b.bases.charCodeAt(k)) d++;
      return d;
    };
    let minDistance = Infinity;
    for (let i = 0; i < distinct.length; i++) {
      for (let j = i + 1; j < distinct.length; j++) {
        minDistance = Math.min(minDistance, distance(distinct[i]!.part, distinct[j]!.part));
      }
    }
    const safe = Math.min(MAX_MISMATCHES, maxSafeMismatches(minDistance));
    max.push(safe);
    const wanted = asked && bad === undefined ? (asked[s] ?? asked[0]) : undefined;
    const m = wanted ?? Math.min(DEFAULT_MAX_MISMATCHES, safe);
    mismatches.push(m);
    const separable = 2 * m + 1;
    const what = design.segments.length > 1 ? `${SEGMENT_WORDS[segment]} ` : 'Barcodes ';
    if (minDistance >= Math.max(separable, COMFORTABLE_DISTANCE)) return;
    for (let i = 0; i < distinct.length; i++) {
      for (let j = i + 1; j < distinct.length; j++) {
        const a = distinct[i]!;
        const b = distinct[j]!;
        const d = distance(a.part, b.part);
        if (d >= separable && d >= COMFORTABLE_DISTANCE) continue;
        const name = `${what}${a.part.bases} (row ${a.row}, ${a.sample}) and ${b.part.bases} (row ${b.row}, ${b.sample})`;
        const overlap = a.part.bases.length !== b.part.bases.length ? ' where they overlap in the read' : '';
        if (d < separable) {
          errors.push({
            row: b.row,
            column: BARCODE,
            message: `${name} are ${d} apart${overlap}: with ${m} mismatch${m === 1 ? '' : 'es'} allowed a read could match both. Allow ${maxSafeMismatches(d)} mismatches or change one barcode to differ in at least ${separable} positions`,
          });
        } else {
          warnings.push({
            row: b.row,
            column: BARCODE,
            message: `${name} are only ${d} apart${overlap}: mismatches cannot be tolerated, and a sequencing error can move a read to the wrong sample. Prefer barcodes at least ${COMFORTABLE_DISTANCE} apart`,
          });
        }
      }
    }
  });
  return { mismatches, max };
}
