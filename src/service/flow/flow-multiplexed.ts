/**
 * POST /upload/multiplexed: the reads of a lane, linked to the sheet uploaded just before
 * (FLOW-WIRE.md §4.2 "proposed rule"). No request names the sheet, so R1 is matched to the
 * caller's newest accepted, unused sheet whose File column names R1's filename, or, when no
 * sheet has File columns, to the newest accepted one. R2 carries `reads1` on every chunk.
 * The lane is created through the service's own lane command (every check of /api's lane
 * path) once the reads are in: when R2 completes, or, when no R2 starts within a short grace
 * period after R1 (flowbio starts R2 straight after R1's last answer), with R1 alone.
 */
import { hashFileSync } from '../data/content-blobs';
import { runAfter, type ServiceContext, type StoreContext } from '../context';
import type { DataRow } from '../data/data.store';
import type { AuthUser } from '../auth/authenticate';
import { createLane } from '../lanes/lanes.commands';
import { type FlowFields, one } from './flow-chunks';
import { badRequest } from './flow-errors';
import { dropSheet, expireSheets, sheetPath } from './flow-annotation';
import { markSheetUsed, waitingSheetsOf, type PendingSheet } from './flow-sheets.store';

/** How long a single-end lane waits for an R2 that may follow (on the service's clock). */
export const GRACE_MS = 10_000;

export interface Assembly {
  sheet: PendingSheet;
  user: AuthUser;
  read1: number;
  read2: number | null;
  /** Cancels the grace timer while it runs. */
  timer: (() => void) | null;
}

/** The multiplexed uploads waiting for their mate (a part the root builds); timers stop at shutdown. */
export function createAssemblies(ctx: StoreContext): Map<number, Assembly> {
  const all = new Map<number, Assembly>();
  ctx.onClose(() => {
    for (const a of all.values()) a.timer?.();
  });
  return all;
}

function assemblies(ctx: ServiceContext): Map<number, Assembly> {
  return ctx.parts.flow.assemblies;
}

/** The sheet R1 belongs to, or null. */
function sheetFor(ctx: ServiceContext, user: AuthUser, filename: string): PendingSheet | null {
  expireSheets(ctx);
  const mine = waitingSheetsOf(ctx, user.id);
  const named = mine.find((s) => s.files.includes(filename));
  if (named) return named;
  return mine.find((s) => s.files.length === 0) ?? null;
}

function reads1Of(fields: FlowFields): number | null {
  const v = one(fields, 'reads1');
  if (v === undefined || v === '') return null;
  if (!/^\d{1,15}$/.test(v)) throw badRequest('reads1 must be the data id of read 1');
  return Number(v);
}

/** Checked on a reads file's first chunk, before any byte is stored. */
export function multiplexedStarted(ctx: ServiceContext, user: AuthUser, fields: FlowFields): void {
  const r1 = reads1Of(fields);
  if (r1 !== null) {
    const a = assemblies(ctx).get(r1);
    if (!a || a.user.id !== user.id || a.read2 !== null) {
      throw badRequest(`reads1 ${r1} is not multiplexed read 1 of yours waiting for its read 2`);
    }
    a.timer?.();
    a.timer = null;
    return;
  }
  const filename = one(fields, 'filename') ?? '';
  if (!sheetFor(ctx, user, filename)) {
    throw badRequest(`No annotation sheet of yours is waiting for "${filename}": upload the annotation first`);
  }
}

async function startLane(ctx: ServiceContext, a: Assembly): Promise<void> {
  assemblies(ctx).delete(a.read1);
  a.timer?.();
  a.timer = null;
  const { sheet } = a;
  try {
    const lane = await createLane(ctx, a.user, {
      fields: {
        name: sheet.filename.replace(/\.[^.]+$/, '').slice(0, 200) || 'Flow upload',
        file_data_id: String(a.read1),
        ...(a.read2 !== null ? { file2_data_id: String(a.read2) } : {}),
        // flowbio accepted the sheet's warnings when it sent the reads.
        ignore_warnings: 'true',
      },
      annotation: {
        path: sheetPath(ctx, sheet),
        filename: sheet.filename,
        size: sheet.size,
        sha256: hashFileSync(sheetPath(ctx, sheet)),
      },
      read1: null,
      read2: null,
      index1: null,
      index2: null,
      cleanup: () => {},
    });
    ctx.log(`flow mount: lane ${lane.id} created from ${sheet.filename}`);
  } catch (err) {
    ctx.log(`flow mount: the lane of ${sheet.filename} could not be created: ${(err as Error).message}`);
  } finally {
    dropSheet(ctx, sheet);
  }
}

/** A reads file completed: link it, and start the lane once its reads are all in. */
export function multiplexedArrived(ctx: ServiceContext, user: AuthUser, fields: FlowFields, record: DataRow): void {
  const r1 = reads1Of(fields);
  const map = assemblies(ctx);
  if (r1 !== null) {
    const a = map.get(r1);
    // A re-sent last chunk of R2 after the lane started finds nothing to do.
    if (!a || a.read2 !== null) return;
    a.read2 = record.id;
    void startLane(ctx, a);
    return;
  }
  if (map.has(record.id)) return;
  const sheet = sheetFor(ctx, user, record.filename);
  if (!sheet) throw badRequest(`No annotation sheet of yours is waiting for "${record.filename}"`);
  markSheetUsed(ctx, sheet.id);
  const a: Assembly = { sheet, user, read1: record.id, read2: null, timer: null };
  map.set(record.id, a);
  a.timer = runAfter(ctx.clock, GRACE_MS, () => void startLane(ctx, a));
}

/**
 * A caller that never sends an R2 (flowbio's legacy client uploads one multiplexed file) says
 * so: R1's lane starts now instead of after the grace period. Nothing waits for `id` when it
 * is not a caller's R1 (a re-sent last chunk after the lane started).
 */
export function multiplexedComplete(ctx: ServiceContext, user: AuthUser, read1: number): void {
  const a = assemblies(ctx).get(read1);
  if (!a || a.user.id !== user.id || a.read2 !== null) return;
  void startLane(ctx, a);
}
