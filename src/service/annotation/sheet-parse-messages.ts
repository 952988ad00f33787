/** Messages between the service and its sheet-parsing thread. */
import type { TableLimits } from '../../shared/sheets/table-limits';
import type { ReadSheetResult } from './sheet-reader';

export interface ParseRequest {
  id: number;
  path: string;
  filename: string;
  limits: Partial<TableLimits>;
}

export type ParseReply =
  | { ready: true }
  | { id: number; ok: true; result: ReadSheetResult }
  | {
      id: number;
      ok: false;
      /** A TableReadError's fields; `internal` when the parse failed in an unexpected way. */
      error: { message: string; row: number; column: string; limit: keyof TableLimits | null; internal?: boolean };
    };
