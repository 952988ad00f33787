/**
 * An execution's log as Flow serves it (`GET /executions/{id}?log=<byte offset>`, FLOW-WIRE.md
 * P1-18): one text, the entries' messages joined by newlines, read from a byte offset. It is
 * built from every entry, not from the detail's latest 200 (execution-presenter.ts): with those,
 * a log that grew past the window shifted under the poller, and its offset named another byte on
 * the next poll (a line read twice or skipped). Appending an entry only appends to this text, so
 * an offset names the same byte on every poll however long the log grows.
 */
import type { Db } from '../db/database';
import { listLogs } from '../executions/executions.store';

/** Entries read from the database at a time. */
const PAGE = 1000;

/** The log from byte `from` to its end (empty at or past the end). */
export function flowLogFrom(db: Db, executionId: number, from = 0): string {
  const parts: Buffer[] = [];
  let at = 0;
  let first = true;
  for (let after = 0; ;) {
    const page = listLogs(db, executionId, after, PAGE);
    for (const entry of page) {
      const piece = Buffer.from(first ? entry.message : `\n${entry.message}`, 'utf8');
      first = false;
      if (at + piece.length > from) parts.push(at >= from ? piece : piece.subarray(from - at));
      at += piece.length;
    }
    if (page.length < PAGE) break;
    after = page.at(-1)!.id;
  }
  return Buffer.concat(parts).toString('utf8');
}
