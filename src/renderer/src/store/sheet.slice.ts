/**
 * The lane annotation sheet being edited: headers and rows of cell text. Every edit replaces
 * only the touched row arrays, so a 2,000-row grid re-renders just the rows that changed.
 */
import type { StateCreator } from 'zustand';

export interface SheetSlice {
  sheetHeaders: string[];
  sheetRows: string[][];
  /** Where the sheet came from (the opened workbook, kept to save back into); opaque here. */
  sheetSource: unknown;
  sheetFileName: string | null;
  sheetDirty: boolean;
  loadSheet(headers: string[], rows: string[][], source: unknown, fileName: string | null): void;
  setCell(row: number, col: number, value: string): void;
  /** Pastes a block at (row, col), adding rows as needed; columns beyond the sheet are dropped. */
  pasteBlock(row: number, col: number, block: string[][]): void;
  addRows(at: number, count: number): void;
  deleteRows(indices: number[]): void;
  addColumn(name: string): void;
  /**
   * One value for every row with anything in it whose cell in the column is empty,
   * adding the column when the sheet has none: Organism or Category asked once for the sheet.
   */
  fillColumn(column: number | null, name: string, value: string): void;
  markSaved(fileName: string): void;
  /** The sheet went to the service with its lane: nothing is lost by leaving any more. */
  markSubmitted(): void;
}

const blank = (n: number) => Array.from({ length: n }, () => '');

export const createSheetSlice: StateCreator<SheetSlice, [], [], SheetSlice> = (set) => ({
  sheetHeaders: [],
  sheetRows: [],
  sheetSource: null,
  sheetFileName: null,
  sheetDirty: false,
  loadSheet: (sheetHeaders, sheetRows, sheetSource, sheetFileName) =>
    set({ sheetHeaders, sheetRows, sheetSource, sheetFileName, sheetDirty: false }),
  setCell: (row, col, value) =>
    set((s) => {
      const rows = s.sheetRows.slice();
      const r = (rows[row] ?? blank(s.sheetHeaders.length)).slice();
      r[col] = value;
      rows[row] = r;
      return { sheetRows: rows, sheetDirty: true };
    }),
  pasteBlock: (row, col, block) =>
    set((s) => {
      const width = s.sheetHeaders.length;
      const rows = s.sheetRows.slice();
      block.forEach((values, i) => {
        const r = (rows[row + i] ?? blank(width)).slice();
        values.forEach((v, j) => {
          if (col + j < width) r[col + j] = v.trim();
        });
        rows[row + i] = r;
      });
      return { sheetRows: rows, sheetDirty: true };
    }),
  addRows: (at, count) =>
    set((s) => {
      const rows = s.sheetRows.slice();
      rows.splice(at, 0, ...Array.from({ length: count }, () => blank(s.sheetHeaders.length)));
      return { sheetRows: rows, sheetDirty: true };
    }),
  deleteRows: (indices) =>
    set((s) => {
      const drop = new Set(indices);
      return { sheetRows: s.sheetRows.filter((_, i) => !drop.has(i)), sheetDirty: true };
    }),
  addColumn: (name) =>
    set((s) => ({
      sheetHeaders: [...s.sheetHeaders, name],
      sheetRows: s.sheetRows.map((r) => [...r, '']),
      sheetDirty: true,
    })),
  fillColumn: (column, name, value) =>
    set((s) => {
      const headers = column === null ? [...s.sheetHeaders, name] : s.sheetHeaders;
      const col = column ?? s.sheetHeaders.length;
      const rows = s.sheetRows.map((r) => {
        const row = column === null ? [...r, ''] : r;
        return row.some((v) => v.trim()) && !(row[col] ?? '').trim() ? row.map((v, i) => (i === col ? value : v)) : row;
      });
      return { sheetHeaders: headers, sheetRows: rows, sheetDirty: true };
    }),
  markSaved: (sheetFileName) => set({ sheetFileName, sheetDirty: false }),
  markSubmitted: () => set({ sheetDirty: false }),
});
