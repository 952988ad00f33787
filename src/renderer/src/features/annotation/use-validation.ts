/**
 * Live validation with the service's own rules (src/shared/annotation): run shortly after the
 * technician stops typing, so a keystroke paints at once even on a 2,000-row sheet whose
 * barcode check compares every pair.
 */
import { useEffect, useState } from 'react';
import {
  namedColumn,
  validateAnnotation,
  type AnnotationReport,
  type AnnotationVocabulary,
  type Issue,
} from '../../../../shared/annotation';
import { useAppStore } from '../../store';
import type { IssueMap } from './sheet-grid';
import { firstSheetRow } from './xlsx-sheet';

const DELAY_MS = 250;

function columnOf(headers: string[], column: string): number {
  const exact = headers.indexOf(column);
  if (exact >= 0) return exact;
  return headers.findIndex((h) => namedColumn(h) === column);
}

function place(map: IssueMap, headers: string[], issues: Issue[], level: 'error' | 'warning', firstRow: number) {
  for (const i of issues) {
    const col = columnOf(headers, i.column);
    if (i.row < firstRow || col < 0) continue;
    let row = map.get(i.row - firstRow);
    if (!row) map.set(i.row - firstRow, (row = new Map()));
    const cell = row.get(col);
    if (cell) {
      cell.messages.push(i.message);
      if (level === 'error') cell.level = 'error';
    } else row.set(col, { level, messages: [i.message] });
  }
}

export interface Validation {
  report: AnnotationReport | null;
  cells: IssueMap;
  pending: boolean;
}

/** Validates the store's sheet as a lane sheet against the vocabularies. */
export function useValidation(
  vocabulary: AnnotationVocabulary,
  options: { mismatches?: readonly number[]; layout?: string },
): Validation {
  const headers = useAppStore((s) => s.sheetHeaders);
  const rows = useAppStore((s) => s.sheetRows);
  // Rows are numbered as the sheet numbers them (and the service reports them): under a title
  // above the headers, the first data row is not row 2.
  const firstRow = useAppStore((s) => firstSheetRow(s.sheetSource));
  const [result, setResult] = useState<Validation>({ report: null, cells: new Map(), pending: false });
  const { layout } = options;
  // A new array each render must not re-run the validation: compare by value.
  const mismatchKey = options.mismatches?.join(',') ?? '';

  useEffect(() => {
    if (headers.length === 0) return;
    setResult((r) => (r.pending ? r : { ...r, pending: true }));
    const timer = setTimeout(() => {
      // Trailing empty rows are not samples.
      let end = rows.length;
      while (end > 0 && rows[end - 1]!.every((v) => !v?.trim())) end--;
      const sheetRows = rows.slice(0, end).map((values, i) => ({
        row: firstRow + i,
        values: Object.fromEntries(headers.map((h, c) => [h, values[c] ?? ''])),
      }));
      const report = validateAnnotation(sheetRows, vocabulary, {
        kind: 'lane',
        headers,
        mismatches: mismatchKey ? mismatchKey.split(',').map(Number) : undefined,
        layout: layout || undefined,
      });
      const cells: IssueMap = new Map();
      place(cells, headers, report.errors, 'error', firstRow);
      place(cells, headers, report.warnings, 'warning', firstRow);
      setResult({ report, cells, pending: false });
    }, DELAY_MS);
    return () => clearTimeout(timer);
  }, [headers, rows, firstRow, vocabulary, mismatchKey, layout]);

  return result;
}
