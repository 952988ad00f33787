/**
 * The sheet-parsing thread: reads annotation sheets sent by users off the service's event
 * loop, one at a time, and answers with rows or the reader's error. A lane's sheet is also
 * checked by the annotation rules and planned here: the barcode checks compare every pair of
 * rows, which for a large sheet costs seconds. The service stops this
 * thread when a parse runs past its time bound or memory bound (bounded-sheet-reader.ts).
 */
import { parentPort } from 'node:worker_threads';
import { TableReadError } from '../../shared/sheets/table-limits';
import { planFromRows } from './plan';
import type { ParsedSheet, ParseReply, ParseRequest } from './sheet-parse-messages';
import { readSheet } from '../annotation/sheet-reader';

const port = parentPort;
if (!port) throw new Error('sheet-parse-thread runs as a worker thread');

port.on('message', (req: ParseRequest) => {
  void readSheet(req.path, req.filename, req.limits).then(
    (sheet) => {
      const result: ParsedSheet = req.plan
        ? { ...sheet, planned: planFromRows(sheet.rows, { ...req.plan, headers: sheet.headers }) }
        : sheet;
      port.postMessage({ id: req.id, ok: true, result } satisfies ParseReply);
    },
    (err: unknown) => {
      const known = err instanceof TableReadError;
      port.postMessage({
        id: req.id,
        ok: false,
        error: {
          message: err instanceof Error ? err.message : String(err),
          row: known ? err.row : 0,
          column: known ? err.column : '',
          limit: known ? err.limit : null,
          internal: !known,
        },
      } satisfies ParseReply);
    },
  );
});
port.postMessage({ ready: true } satisfies ParseReply);
