/**
 * Issue 16 item 5: the numbers the Uploads screen shows come from these events and must be
 * true. Progress counts what the service acknowledged (compared with what it says it holds),
 * queued files are announced and counted in the totals, and once everything finished or is
 * paused the last word says idle: no speed, no ETA, nothing active.
 */
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../../src/shared/desktop-api/contract';
import { openQueue, writeFastq } from './queue-harness';
import { coreSuite } from './core-suite';
import { getUploadByFileId } from '../../../src/shared/service-api/endpoints';

const core = coreSuite({ prefix: 'laneway-truth-' });

const CHUNK = 64 * 1024;

type Seen = { event: EventName; payload: unknown };
function recorder() {
  const seen: Seen[] = [];
  const waiters: Array<() => void> = [];
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>) => {
    seen.push({ event, payload });
    for (const w of waiters.splice(0)) w();
  };
  const progress = () =>
    seen.filter((s) => s.event === 'uploads:progress').map((s) => s.payload as EventPayload<'uploads:progress'>);
  /**
   * Resolves once `check` holds, asked now and after each event the queue emits: a count of
   * fixed sleeps (2 s for the first event after a resume) ran out on a loaded machine.
   */
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { seen, emit, progress, until };
}

describe('upload progress is what the service holds', () => {
  it('announces queued files, counts them in the total, reports only acknowledged chunks and ends idle', async () => {
    const rec = recorder();
    const h = await openQueue(core.service, { emit: rec.emit, preHashLimit: 0, progressIntervalMs: 20 });
    h.queue.setSettings({ concurrency: 1, limit_mbps: 8, schedule: [] });
    const a = writeFastq(join(core.root, 'a.fastq'), 3000);
    const b = writeFastq(join(core.root, 'b.fastq'), 3000);
    const rows = h.queue.enqueueFiles([a, b]);
    const sizes = [statSync(a).size, statSync(b).size];

    // Both files are listed at once, the second while it is still queued.
    await new Promise((r) => setTimeout(r, 0));
    const announced = rec.seen
      .filter((s) => s.event === 'uploads:job-changed')
      .map((s) => (s.payload as { id: number }).id);
    expect(announced).toEqual(expect.arrayContaining(rows.map((r) => r.id)));
    // The total counts the queued file from the start.
    expect(h.queue.list().overall.bytes_total).toBe(sizes[0]! + sizes[1]!);

    await h.queue.waitForIdle();
    const events = rec.progress();
    expect(events.length).toBeGreaterThan(2);
    for (const e of events) {
      expect(e.overall.bytes_total).toBe(sizes[0]! + sizes[1]!);
      for (const j of e.jobs) {
        // A whole number of acknowledged chunks, or the whole file: never bytes still in flight.
        // The short last chunk travels with the others, so it may be acknowledged before them.
        const last = j.bytes_total % CHUNK;
        const whole =
          j.bytes_sent === j.bytes_total ||
          j.bytes_sent % CHUNK === 0 ||
          (j.bytes_sent >= last && (j.bytes_sent - last) % CHUNK === 0);
        expect(whole, `job ${j.id} reported ${j.bytes_sent} of ${j.bytes_total}`).toBe(true);
      }
    }
    // The last word: idle.
    const last = events.at(-1)!.overall;
    expect(last).toMatchObject({ jobs_active: 0, jobs_queued: 0, speed_bps: 0, eta_seconds: null });
    expect(last.bytes_sent).toBe(last.bytes_total);
    await h.close();
  });

  it('after a pause: no speed, and after resume the bar starts from what the service holds', async () => {
    const rec = recorder();
    const h = await openQueue(core.service, { emit: rec.emit, preHashLimit: 0, progressIntervalMs: 20 });
    // 2 Mbit/s: 64 KiB chunks take about a quarter of a second each.
    h.queue.setSettings({ concurrency: 1, limit_mbps: 2, schedule: [] });
    const path = writeFastq(join(core.root, 'slow.fastq'), 12_000);
    const [row] = h.queue.enqueueFiles([path]);
    const id = row!.id;
    // Wait until a few chunks are acknowledged.
    await rec.until(() => (h.queue.store.job(id)?.bytes_sent ?? 0) >= 3 * CHUNK);
    h.queue.pause(id);
    // The runner winds down its chunk in flight; its last word must then be "paused, idle".
    const lastOverall = () => rec.progress().at(-1)!.overall;
    await rec.until(() => lastOverall().jobs_active === 0);
    const paused = lastOverall();
    expect(paused).toMatchObject({ jobs_active: 0, speed_bps: 0, eta_seconds: null, paused: true });

    const fileId = h.queue.store.job(id)!.file_id;
    const held = await h.client.call(getUploadByFileId, { params: { file_id: fileId } });
    const heldChunks = held.received_chunks.length;
    const before = rec.progress().length;
    h.queue.resume(id);
    await rec.until(() => rec.progress().length > before);
    const first = rec.progress()[before]!.jobs.find((j) => j.id === id)!;
    // What the bar shows right after resuming is never more than the service holds.
    expect(first.bytes_sent).toBeLessThanOrEqual(heldChunks * CHUNK);
    h.queue.setSettings({ concurrency: 1, limit_mbps: null, schedule: [] });
    await h.queue.waitForIdle();
    expect(h.queue.list().jobs.find((j) => j.id === id)!.state).toBe('completed');
    await h.close();
  });
});
