/**
 * Failed sign-ins in the audit log, without letting them write to disk per attempt: a flood of
 * failures must not fill the disk or slow sign-in (docs/security.md). Failures are summed in
 * memory per (username, address) and written once a minute as one `sign_in_failed` entry each
 * (count, first and last time), at most MAX_ROWS entries per minute plus one for the rest.
 * A full disk drops the summary (said in the service log) rather than failing anything.
 */
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { isStorageFull } from '../http/storage-errors';
import { userByUsername } from '../auth/users.store';

const FLUSH_MS = 60_000;
const MAX_ROWS = 100;

interface Tally {
  username: string;
  address: string;
  count: number;
  first: string;
  last: string;
}

export class FailedSignInAudit {
  private readonly pending = new Map<string, Tally>();
  private others = 0;
  private lastFlush: number;

  constructor(private readonly ctx: ServiceContext) {
    this.lastFlush = ctx.clock.now();
    const timer = setInterval(() => this.flush(), FLUSH_MS);
    timer.unref();
    ctx.onClose(() => {
      clearInterval(timer);
      this.flush();
    });
  }

  record(username: string, address: string): void {
    const now = new Date(this.ctx.clock.now()).toISOString();
    const key = `${username.toLowerCase()}\n${address}`;
    const t = this.pending.get(key);
    if (t) {
      t.count++;
      t.last = now;
    } else if (this.pending.size < MAX_ROWS) {
      this.pending.set(key, { username: username.slice(0, 64), address, count: 1, first: now, last: now });
    } else this.others++;
    if (this.ctx.clock.now() - this.lastFlush >= FLUSH_MS) this.flush();
  }

  /** Writes what is pending (the minute's timer, the service's shutdown, or a late failure). */
  flush(): void {
    this.lastFlush = this.ctx.clock.now();
    if (this.pending.size === 0 && this.others === 0) return;
    const tallies = [...this.pending.values()];
    const others = this.others;
    this.pending.clear();
    this.others = 0;
    try {
      this.ctx.db.transaction(() => {
        for (const t of tallies) {
          const user = userByUsername(this.ctx.db, t.username);
          audit(
            this.ctx,
            null,
            'sign_in_failed',
            { kind: 'user', id: user?.id ?? null, name: t.username },
            { address: t.address, count: t.count, first: t.first, last: t.last },
          );
        }
        if (others)
          audit(this.ctx, null, 'sign_in_failed', { kind: 'user', id: null }, { count: others, others: true });
      })();
    } catch (err) {
      if (!isStorageFull(err)) throw err;
      this.ctx.log(`failed sign-ins not audited (disk full): ${tallies.length + (others ? 1 : 0)} entries`);
    }
  }
}
