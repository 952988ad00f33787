/**
 * The sheet-parsing thread: reads annotation sheets sent by users off the service's event
 * loop, one at a time, and answers with rows or the reader's error. A lane's sheet is also
 * checked by the annotation rules and planned here: the barcode checks compare every pair of
 * rows, which for a large sheet costs seconds. The service stops this
 * thread when a parse runs past its time bound or memory bound (bounded-sheet-reader.ts).
 */
import { parentPort } from 'node:worker_threads';
import { TableReadError } from '../../../shared/sheets/table-limits';
import { planFromRows } from './plan';
import { choosePlacement } from './placement';
import type { ParsedSheet, ParseReply, ParseRequest } from './sheet-parse-messages';
import { readSheet } from '../../sheets/sheet-reader';

const port = parentPort;
if (!port) throw new Error('sheet-parse-thread runs as a worker thread');

/** Reads the sheet, and for a lane plans it and chooses where its barcodes are from its first reads. */
async function parse(req: ParseRequest): Promise<ParsedSheet> {
  const sheet = await readSheet(req.path, req.filename, req.limits);
  if (!req.plan) return sheet;
  const { reads, placementGiven, adapter, ...options } = req.plan;
  const planned: NonNullable<ParsedSheet['planned']> = planFromRows(sheet.rows, { ...options, headers: sheet.headers });
  if (planned.plan && reads) {
    const chosen = await choosePlacement(planned.plan, reads, { given: placementGiven, adapter });
    planned.plan = chosen.plan;
    planned.detection = chosen.detection;
  }
  return { ...sheet, planned };
}

port.on('message', (req: ParseRequest) => {
  void parse(req).then(
    (result) => {
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
