/**
 * Demultiplexes a lane in the background: the demultiplexing worker runs as a child process,
 * its progress goes to the lane row, and on success every sample of the sheet becomes a
 * sample with its reads as data records, all in one transaction (a crash or a failure leaves
 * either the finished lane or none of it). A lane interrupted by a shutdown runs again at the
 * next start.
 */
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ServiceContext } from '../context';
import { secondsSince } from '../service-log';
import { hashFile } from '../data/content-blobs';
import { createDataRecord, dataFilePath } from '../data/data.commands';
import { runDemuxWorker, type DemuxResult } from '../tools/demux/index';
import { toAuthUser } from '../auth/authenticate';
import { userById } from '../auth/users.store';
import { createSample } from '../samples/samples.commands';
import { toEntries } from '../../shared/annotation/columns';
import { loadVocabularies, metadataKeyFor } from '../vocabularies/vocabularies';
import {
  completeLane,
  demultiplexingLaneIds,
  failLane,
  laneById,
  laneRows,
  laneSampleIds,
  markLaneStarted,
  setLaneProgress,
  type LaneRow,
} from './lanes.store';
import { diskNearlyFull } from '../storage/disk-space';
import { writeWhenSpace } from '../storage/write-when-space';
import { isStorageFull } from '../http/storage-errors';

/** A lane being demultiplexed: how to stop it, and when it has stopped. */
export interface RunningLane {
  abort: AbortController;
  done: Promise<void>;
}

function laneDir(ctx: ServiceContext, id: number): string {
  return join(ctx.config.dataDir, 'lanes', String(id));
}

function now(ctx: ServiceContext): string {
  return new Date(ctx.clock.now()).toISOString();
}

/** Starts demultiplexing a lane in the background (once). */
export function startLane(ctx: ServiceContext, id: number): Promise<void> {
  const map = ctx.parts.lanes;
  if (map.has(id)) return Promise.resolve();
  const abort = new AbortController();
  const done = runLane(ctx, id, abort.signal)
    .catch((err: unknown) => {
      if (abort.signal.aborted) return;
      let message = (err as Error).message ?? String(err);
      if (isStorageFull(err) || diskNearlyFull(ctx.config.dataDir)) {
        message = `The service's disk is full (no space left on device): ${message}`;
        // The partial output holds the space the failure needs to be recorded.
        rmSync(laneDir(ctx, id), { recursive: true, force: true });
      }
      const finished = now(ctx);
      writeWhenSpace(ctx, `lane ${id}`, () => failLane(ctx, id, message.slice(0, 4000), finished));
      const lane = laneById(ctx, id);
      ctx.log(`lane ${id} failed: ${message}`, {
        event: 'lane.failed',
        level: 'warn',
        lane_id: id,
        lane: lane?.name ?? null,
        seconds: secondsSince(ctx, lane?.started ?? null),
      });
    })
    .finally(() => {
      map.delete(id);
      if (!abort.signal.aborted) rmSync(laneDir(ctx, id), { recursive: true, force: true });
    });
  map.set(id, { abort, done });
  return done;
}

/**
 * Stops running lanes at shutdown and waits for their workers to exit (the lanes stay
 * "demultiplexing" and run again at the next start).
 */
export async function stopLanes(ctx: ServiceContext): Promise<void> {
  const all = [...ctx.parts.lanes.values()];
  for (const r of all) r.abort.abort();
  await Promise.all(all.map((r) => r.done));
}

/** Restarts lanes a previous process left unfinished; lanes still running stop with the service. */
export function resumeLanes(ctx: ServiceContext): void {
  ctx.onClose(() => stopLanes(ctx));
  for (const id of demultiplexingLaneIds(ctx)) void startLane(ctx, id);
}

async function runLane(ctx: ServiceContext, id: number, signal: AbortSignal): Promise<void> {
  const lane = laneById(ctx, id)!;
  const outDir = join(laneDir(ctx, id), 'out');
  rmSync(laneDir(ctx, id), { recursive: true, force: true });
  markLaneStarted(ctx, id, now(ctx));
  let last = 0;
  const result = await runDemuxWorker(
    {
      parameters: {
        rows: laneRows(lane),
        mismatches: lane.segment_mismatches ? (JSON.parse(lane.segment_mismatches) as number[]) : lane.mismatches,
        layout: lane.layout ?? undefined,
        barcode_source: lane.barcode_source,
        barcode_read: lane.barcode_read === 2 ? 2 : 1,
        // Index reads sent with the lane say where the indexes are, not how they are oriented.
        placement_given:
          lane.barcode_source !== 'auto' && !(lane.barcode_source === 'index-reads' && lane.index1_id !== null),
        ...(lane.adapter ? { adapter: lane.adapter } : {}),
      },
      samples: [
        {
          id: lane.id,
          name: lane.name,
          read1: dataFilePath(ctx, lane.read1_id),
          read2: lane.read2_id !== null ? dataFilePath(ctx, lane.read2_id) : undefined,
          metadata: {},
        },
      ],
      files: {
        ...(lane.index1_id !== null ? { index_read1: dataFilePath(ctx, lane.index1_id) } : {}),
        ...(lane.index2_id !== null ? { index_read2: dataFilePath(ctx, lane.index2_id) } : {}),
      },
      outDir,
      cpus: 1,
    },
    (message) => {
      if (message.type !== 'progress') return;
      // The report and the samples come after 100%: hold the figure just below until then.
      const pct = Math.min(99, Math.floor(message.progress));
      if (pct > last) {
        last = pct;
        setLaneProgress(ctx, id, pct);
      }
    },
    { jobFile: join(laneDir(ctx, id), 'job.json'), signal },
  );
  if (signal.aborted) return;
  await finishLane(ctx, lane, result, outDir);
}

/**
 * How long one transaction of a lane's completion may hold the event loop before it commits and
 * lets other work run; a sample costs a few ms (its data records, hard links, audit rows).
 */
export const FINISH_SLICE_MS = 15;

/** Records a demultiplexed lane's samples and completes it (exported for the benchmark). */
export async function finishLane(
  ctx: ServiceContext,
  lane: LaneRow,
  result: DemuxResult,
  outDir: string,
): Promise<void> {
  // A lane whose samples would all be empty is never complete: it fails with the cause, no sample made.
  if (result.assigned_reads === 0) {
    const why = result.detection?.refusal ?? result.diagnosis?.message;
    throw new Error(
      `No read matched any sample (${result.total_reads} reads, all undetermined)${why ? `: ${why}` : ''}`,
    );
  }
  const ownerRow = lane.owner_user_id !== null ? userById(ctx.db, lane.owner_user_id) : undefined;
  if (!ownerRow) throw new Error('The lane has no owner account any more');
  const user = toAuthUser(ownerRow);
  const owner = { owner_user_id: lane.owner_user_id, owner_group_id: lane.owner_group_id };
  const fields = loadVocabularies().fields;
  const entries = new Map(toEntries(laneRows(lane)).map((e) => [e.sampleName, e]));
  // Hash outside the transaction (it reads every output once), then commit everything at once.
  const files = [...result.samples.flatMap((s) => s.files), ...result.undetermined_files];
  const sums = new Map<string, string>();
  for (const f of files) sums.set(f, await hashFile(join(outDir, f)));
  const record = (f: string) =>
    createDataRecord(ctx, {
      sourceFile: join(outDir, f),
      filename: basename(f),
      dataType: 'fastq',
      owner,
      source: 'lane',
      checksum: sums.get(f),
    });
  // In time slices that yield between them: one transaction for a 20,000-row lane held the event
  // loop for seconds (issue 24). Samples a crashed earlier attempt already created are kept
  // (the lane's resume finds them by name); the lane completes in the last transaction.
  const created = laneSampleIds(ctx, lane.id);
  const todo = result.samples.filter((s) => !created.has(s.name));
  let next = 0;
  while (next < todo.length) {
    const sliceEnd = performance.now() + FINISH_SLICE_MS;
    let inSlice = 0;
    ctx.db.transaction(() => {
      // At least one sample per slice, however slow, so that completion always advances.
      while (next < todo.length && (inSlice++ === 0 || performance.now() < sliceEnd)) {
        const s = todo[next++]!;
        const reads = s.files.map(record);
        const entry = entries.get(s.name);
        const metadata: Record<string, string> = {};
        for (const [k, v] of Object.entries(entry?.metadata ?? {})) metadata[metadataKeyFor(fields, k)] = v;
        metadata.barcode = s.barcode;
        // Provenance (issue 19 item 8): the lane's own name travels with its samples; `lane`
        // stays the sheet's Lane column (an Illumina sheet's lane numbers).
        metadata.lane_name = lane.name;
        createSample(ctx, user, {
          name: s.name,
          read1: reads[0]!.id,
          read2: reads[1]?.id ?? null,
          metadata,
          laneId: lane.id,
          owner,
        });
      }
    })();
    await new Promise((r) => setImmediate(r));
  }
  const counts: Record<string, number> = {};
  for (const s of result.samples) counts[s.name] = s.reads;
  ctx.db.transaction(() => {
    const undetermined = result.undetermined_files.map((f) => record(f).id);
    completeLane(ctx, lane.id, {
      read_counts: JSON.stringify(counts),
      unknown_barcodes: JSON.stringify(result.top_unknown),
      total_reads: result.total_reads,
      undetermined_reads: result.undetermined_reads,
      undetermined_data: JSON.stringify(undetermined),
      finished: now(ctx),
      report: JSON.stringify(result),
    });
  })();
  const seconds = secondsSince(ctx, laneById(ctx, lane.id)?.started ?? lane.created);
  ctx.log(
    `lane ${lane.id} demultiplexed: ${lane.name} by ${user.username}, ${result.samples.length} samples, ${result.assigned_reads} of ${result.total_reads} reads assigned, in ${seconds ?? '?'} s`,
    {
      event: 'lane.demultiplexed',
      user: user.username,
      lane_id: lane.id,
      lane: lane.name,
      samples: result.samples.length,
      total_reads: result.total_reads,
      assigned_reads: result.assigned_reads,
      seconds,
    },
  );
}
