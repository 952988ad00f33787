/**
 * Group commit for the records of files that arrive whole (issue 21, many small files). Each
 * such file's record, upload row and audit entry were one transaction of their own, and its
 * commit (the write-ahead log's frames for the data, upload and audit pages, their checksums)
 * was the largest single cost of the service's request: some 0.4 ms of its main thread per file.
 * With dozens of small files in flight, the files whose bytes are flushed in one turn of the
 * event loop are many (5 to 20 per turn with 64 in flight), and their records now commit
 * together at the end of that turn, each in a savepoint of its own: one file's refusal rolls
 * back only its own writes. Every caller waits for the commit before it answers, so no client
 * hears of a record that a crash could still lose; a failed commit fails every file of the group.
 */
import type { Db } from '../db/database';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

const queues = new WeakMap<Db, Pending[]>();

/**
 * Runs `work` (synchronous: checks, a rename, the record's writes) in the transaction that
 * commits at the end of this turn of the event loop, after the work of every other file queued
 * in the same turn; resolves with what it returned once that transaction has committed.
 */
export function inGroupCommit<T>(db: Db, work: () => T): Promise<T> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = []));
  const first = queue.length === 0;
  const done = new Promise<T>((resolve, reject) => {
    queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
  });
  if (first) setImmediate(() => commitQueued(db));
  return done;
}

function commitQueued(db: Db): void {
  const batch = queues.get(db) ?? [];
  queues.delete(db);
  const outcomes: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
  try {
    db.transaction(() => {
      for (const p of batch) {
        try {
          // A nested transaction is a savepoint: a throw undoes this file's writes only.
          outcomes.push({ ok: true, value: db.transaction(p.work)() });
        } catch (err) {
          outcomes.push({ ok: false, err });
        }
      }
    })();
  } catch (err) {
    // The commit itself failed (a full disk, an I/O error): nothing of the group is stored.
    for (const p of batch) p.reject(err);
    return;
  }
  batch.forEach((p, i) => {
    const o = outcomes[i]!;
    if (o.ok) p.resolve(o.value);
    else p.reject(o.err);
  });
}
