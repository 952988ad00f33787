/**
 * A lane's read 2 on a Flow profile waits in the queue, never on the wire (issue 23). Flow needs
 * read 1's data id on every chunk of read 2 (`reads1`, FLOW-WIRE.md §4.2); when read 2 started
 * first, its chunks held the shared send window while waiting for that id, read 1 got no room,
 * and the lane stalled for a minute. Here the window holds one chunk and read 2 is queued ahead
 * of read 1: the queue's own events and the window's tickets show that read 2 neither starts nor
 * holds a ticket before read 1 has completed (and is shown as waiting for read 1 until then),
 * and the lane is made. Then the crash cases: the
 * queue stopped in the middle of read 1 (read 2 still waits after the restart), then in the
 * middle of read 2 (read 2 resumes under the same Flow upload, its bytes identical on download).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enqueueLane } from '../../../src/main/core/ingest/confirm';
import { FlowState } from '../../../src/main/core/service-client/flow/flow-state';
import type { JobStore } from '../../../src/main/core/uploads/job-store';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { SendWindow, type Ticket } from '../../../src/main/core/uploads/send-window';
import type { UploadJob } from '../../../src/shared/desktop-api/upload-schemas';
import { getDataByIdDownload } from '../../../src/shared/service-api/endpoints';
import { tempDir } from '../../helpers/temp';
import { coreSuite } from './core-suite';
import { openFlowCore, signInOverFlow } from './flow-core-parts';
import { makeFlowLane } from './flow-lane-fixture';

/** Small chunks, so that each read is dozens of them and read 2 would queue several. */
const CHUNK = 16 * 1024;
const suite = coreSuite();
const files = tempDir('laneway-flow-order-files-');
const states: Array<{ remove(): void }> = [];

afterAll(() => {
  files.remove();
  for (const s of states) s.remove();
});

/** A window of exactly one chunk in flight: a chunk that waits while holding it stops everyone. */
class OneChunkWindow extends SendWindow {
  constructor(private readonly onAcquire: (job: number) => void) {
    super({ initialBytes: CHUNK, minBytes: CHUNK, maxBytes: CHUNK, minSmallChunks: 0 });
  }
  override acquire(job: number, bytes: number, signal?: AbortSignal): Promise<Ticket> {
    this.onAcquire(job);
    return super.acquire(job, bytes, signal);
  }
}

/**
 * Watches the queue's events and the window's tickets for the rule: read 2 does nothing (no
 * state past queued, no ticket asked) before the queue reported read 1 completed.
 */
class ReadOrder {
  read1 = -1;
  read2 = -1;
  read1Completed = false;
  readonly log: string[] = [];
  readonly broken: Promise<never>;
  private fail!: (err: Error) => void;
  constructor() {
    this.broken = new Promise<never>((_, reject) => (this.fail = reject));
    this.broken.catch(() => undefined); // raced below; a rejection nobody awaits is not a crash
  }
  event = (event: string, payload: unknown): void => {
    if (event !== 'uploads:job-changed') return;
    const job = payload as UploadJob;
    if (job.id === this.read1 && job.state === 'completed') this.read1Completed = true;
    // `:waits` marks a job shown as "waits for read 1" (the Uploads screen's status).
    if (job.id === this.read1 || job.id === this.read2)
      this.log.push(`${job.id === this.read1 ? 1 : 2}:${job.state}${job.waits_for_read1 ? ':waits' : ''}`);
    if (job.id === this.read2 && job.state !== 'queued') this.check(`read 2 ${job.state}`);
  };
  ticket = (job: number): void => {
    if (job === this.read2) {
      this.log.push('2:ticket');
      this.check('read 2 asked the send window for a ticket');
    }
  };
  private check(what: string): void {
    if (!this.read1Completed) this.fail(new Error(`${what} before read 1 completed: ${this.log.join(' ')}`));
  }
}

/** The Flow core over a state folder, with the one-chunk window and the order watch. */
function openCore(
  state: string,
  db: ReturnType<typeof openQueueDb>,
  order: ReadOrder,
  stopWhen?: (jobs: JobStore) => boolean,
) {
  let stop: ((done: Promise<void>) => void) | null = null;
  const stopping = new Promise<void>((resolve) => (stop = resolve));
  const parts = openFlowCore(state, db, {
    chunkSize: CHUNK,
    sendWindow: new OneChunkWindow(order.ticket),
    onEvent: order.event,
    onProgress: (jobs) => {
      if (stop && stopWhen?.(jobs)) {
        stop(parts.queue.stop());
        stop = null;
      }
    },
  });
  /** Resolves once the queue was stopped by `stopWhen` (a crash: running jobs aborted mid-file). */
  const stopped = () => Promise.race([stopping, order.broken]);
  return { ...parts, stopped };
}

describe("a Flow lane's read 2 waits in the queue for read 1's data id", () => {
  it('does not start read 2 before read 1 completes, even queued ahead of it with a one-chunk window', async () => {
    const state = tempDir('laneway-flow-order-');
    states.push(state);
    const db = openQueueDb(state.path);
    const order = new ReadOrder();
    const core = openCore(state.path, db, order);
    try {
      await signInOverFlow(core.sessions, suite.service.url);
      core.queue.setSettings({ concurrency: 2, limit_mbps: null, schedule: [] });
      const lane = await makeFlowLane(files.path, 'order', 31);
      expect(readFileSync(lane.read2).length).toBeGreaterThan(10 * CHUNK);
      const queued = await enqueueLane(core.queue, lane);
      order.read1 = queued.jobs.find((j) => j.role === 'multiplexed')!.id;
      order.read2 = queued.jobs.find((j) => j.role === 'multiplexed-read2')!.id;
      // Read 2 first in the queue's order: the scheduler alone must hold it back.
      core.queue.setPriority(order.read2, 'high');
      // The Uploads screen says why read 2 is queued: it waits for read 1 (read 1 itself does not).
      const shown = core.queue.list().jobs;
      expect(shown.find((j) => j.id === order.read2)!.waits_for_read1).toBe(true);
      expect(shown.find((j) => j.id === order.read1)!.waits_for_read1).toBe(false);
      expect(core.queue.job(order.read2).waits_for_read1).toBe(true);
      core.queue.start();
      await Promise.race([core.queue.waitForIdle(), order.broken]);

      const group = core.queue.list().groups.find((g) => g.name === 'order')!;
      expect(group.state, group.error ?? '').toBe('created');
      const jobs = core.queue.list().jobs;
      expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
      // Read 2 went once read 1 was in, with no wait, retry or error on the way.
      expect(order.log.indexOf('1:completed')).toBeLessThan(order.log.indexOf('2:ticket'));
      expect(order.log.filter((l) => l === '2:ticket').length).toBeGreaterThan(10);
      expect(order.log.filter((l) => /^2:(waiting|failed)/.test(l))).toEqual([]);
      // Once read 1 is in, read 2 no longer shows as waiting for it, even before it starts.
      const after = order.log.slice(order.log.indexOf('1:completed') + 1).filter((l) => l.startsWith('2:'));
      expect(after[0]).toMatch(/^2:[a-z]+$/);
      expect(after.filter((l) => l.endsWith(':waits'))).toEqual([]);
      expect(core.queue.job(order.read2).waits_for_read1).toBe(false);
      expect(jobs.every((j) => j.attempts === 0 && j.error === null)).toBe(true);
    } finally {
      await core.queue.stop();
      await core.sessions.close();
      db.close();
    }
  }, 180_000);

  it('after a crash in read 1, read 2 still waits; after a crash in read 2, read 2 resumes where it was', async () => {
    const state = tempDir('laneway-flow-order-crash-');
    states.push(state);
    const db = openQueueDb(state.path);
    const lane = await makeFlowLane(files.path, 'crash', 32);
    let ids = { read1: -1, read2: -1 };
    const midway = (job: () => number) => (jobs: JobStore) => jobs.journal(job()).size >= 2;

    // First run: stopped once read 1 has two chunks on the server.
    const first = new ReadOrder();
    const one = openCore(
      state.path,
      db,
      first,
      midway(() => ids.read1),
    );
    const profile = await signInOverFlow(one.sessions, suite.service.url);
    one.queue.setSettings({ concurrency: 2, limit_mbps: null, schedule: [] });
    const queued = await enqueueLane(one.queue, lane);
    ids = {
      read1: queued.jobs.find((j) => j.role === 'multiplexed')!.id,
      read2: queued.jobs.find((j) => j.role === 'multiplexed-read2')!.id,
    };
    Object.assign(first, ids);
    one.queue.start();
    await one.stopped();
    await one.sessions.close();
    expect(one.jobs.job(ids.read1)!.state).not.toBe('completed');
    expect(one.jobs.job(ids.read2)).toMatchObject({ state: 'queued', size: null, bytes_sent: 0 });

    // Second run: read 1 resumes, read 2 waits for it; stopped once read 2 has two chunks in.
    const second = Object.assign(new ReadOrder(), ids);
    const two = openCore(
      state.path,
      db,
      second,
      midway(() => ids.read2),
    );
    await two.sessions.init();
    two.queue.setSettings({ concurrency: 2, limit_mbps: null, schedule: [] });
    two.queue.start();
    await two.stopped();
    await two.sessions.close();
    expect(second.read1Completed).toBe(true);
    expect(two.jobs.job(ids.read1)).toMatchObject({ state: 'completed', restarts: 0 });
    const flowFile = join(state.path, 'flow', `${profile.id}.json`);
    const read2File = two.jobs.job(ids.read2)!.file_id;
    const before = new FlowState(flowFile).upload(read2File)!;
    expect(before.held).toBeGreaterThanOrEqual(2 * CHUNK);

    // Third run: read 1 is in, so read 2 is runnable at once and goes on under the same upload.
    const third = Object.assign(new ReadOrder(), ids, { read1Completed: true });
    const three = openCore(state.path, db, third);
    try {
      await three.sessions.init();
      three.queue.setSettings({ concurrency: 2, limit_mbps: null, schedule: [] });
      three.queue.start();
      await Promise.race([three.queue.waitForIdle(), third.broken]);
      const group = three.queue.list().groups[0]!;
      expect(group.state, group.error ?? '').toBe('created');
      expect(three.jobs.job(ids.read2)).toMatchObject({ state: 'completed', restarts: 0 });
      expect(new FlowState(flowFile).upload(read2File)!.data).toBe(before.data);
      const client = three.sessions.client()!;
      for (const [id, path] of [
        [ids.read1, lane.file],
        [ids.read2, lane.read2],
      ] as const) {
        const res = await client.send(getDataByIdDownload, { params: { id: three.jobs.job(id)!.data_id! } });
        expect(Buffer.compare(res.body as Buffer, readFileSync(path))).toBe(0);
      }
    } finally {
      await three.queue.stop();
      await three.sessions.close();
      db.close();
    }
  }, 240_000);
});
