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

/** The group commit of one service's database (a part: `ctx.parts.groupCommit`). */
export class GroupCommit {
  private queue: Pending[] = [];

  constructor(private readonly db: Db) {}

  /**
   * Runs `work` (synchronous: checks, a rename, the record's writes) in the transaction that
   * commits at the end of this turn of the event loop, after the work of every other file queued
   * in the same turn; resolves with what it returned once that transaction has committed.
   */
  run<T>(work: () => T): Promise<T> {
    const first = this.queue.length === 0;
    const done = new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
    });
    if (first) setImmediate(() => this.commitQueued());
    return done;
  }

  private commitQueued(): void {
    const batch = this.queue;
    this.queue = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
    try {
      this.db.transaction(() => {
        for (const p of batch) {
          try {
            // A nested transaction is a savepoint: a throw undoes this file's writes only.
            outcomes.push({ ok: true, value: this.db.transaction(p.work)() });
          } catch (err) {
            outcomes.push({ ok: false, err });
          }
        }
      })();
    } catch (err) {
      // The commit itself failed (a full disk, an I/O error, the database closed as the service
      // stopped): nothing of the group is stored.
      for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      if (o.ok) p.resolve(o.value);
      else p.reject(o.err);
    });
  }
}
