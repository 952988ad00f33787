/**
 * Linking multiplexed reads to their sheet (FLOW-WIRE.md §4.2, the proposed rule): R2 names
 * R1 in `reads1`; a sheet without File columns takes the caller's next reads; a single-end lane
 * starts once no R2 followed R1 within the grace period. Each lane goes through the lane
 * command and gives the samples its sheet names.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeWarningLane } from '../../helpers/flow/flow-fixtures';
import { postChunk, uploadInChunks, flowToken } from '../../helpers/flow/flow-wire-client';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { call, setupAdmin, type Session } from '../identity/helpers';
import type { Clock } from '../../../src/service/context';
import { GRACE_MS } from '../../../src/service/flow/flow-multiplexed';

/**
 * The service's clock with timers the test fires itself: the grace period a single-end lane
 * waits for an R2 is not waited out (FLOW-WIRE.md §4.2), it is ended when the test says so.
 */
function fakeTimers() {
  const due: Array<{ ms: number; fn: () => void; cancelled: boolean }> = [];
  const added: Array<() => void> = [];
  const clock: Clock = {
    now: () => Date.now(),
    after(ms, fn) {
      const t = { ms, fn, cancelled: false };
      due.push(t);
      for (const w of added.splice(0)) w();
      return () => (t.cancelled = true);
    },
  };
  return {
    clock,
    /** Resolves once a timer of `ms` is pending (it is set when R1's last chunk lands). */
    async pending(ms: number): Promise<void> {
      while (!due.some((t) => t.ms === ms && !t.cancelled)) await new Promise<void>((w) => added.push(w));
    },
    /** Fires every pending timer of `ms`. */
    fire(ms: number): number {
      const now = due.filter((t) => t.ms === ms && !t.cancelled);
      for (const t of now) {
        t.cancelled = true;
        t.fn();
      }
      return now.length;
    },
  };
}

interface Lane {
  name: string;
  status: string;
  paired: boolean;
  samples: Array<{ name: string; reads: number | null }>;
}

describe('multiplexed uploads on the Flow mount', () => {
  let service: TestService;
  let admin: Session;
  let base: string;
  let token: string;
  const dir = tempDir('laneway-flow-mux-');
  const timers = fakeTimers();

  beforeAll(async () => {
    service = await startTestService({ clock: timers.clock });
    admin = await setupAdmin(service);
    base = `${service.url}/flow/api`;
    token = await flowToken(base);
  });
  afterAll(async () => {
    await service.stop();
    dir.remove();
  });

  /** Waits for the lane of this name to finish demultiplexing. */
  async function finished(name: string): Promise<Lane> {
    for (;;) {
      const lanes = (await call(service, 'GET', '/api/lanes/', { token: admin.token })).body.items as unknown as Lane[];
      const lane = lanes.find((l) => l.name === name);
      if (lane && lane.status !== 'demultiplexing') return lane;
      await new Promise((w) => setTimeout(w, 200));
    }
  }

  it('refuses an R2 whose reads1 is no R1 of the caller waiting for its pair', async () => {
    const lane = writeWarningLane(dir.path, 'stray', 'X', 7);
    const r = await postChunk(
      base,
      '/upload/multiplexed',
      token,
      { filename: 'stray_R2.fastq', offset: 0, isLast: true, data: '', bytes: readFileSync(lane.r2) },
      { reads1: '424242' },
    );
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/reads1/);
  });

  it('starts a single-end lane after the grace period, from a sheet without File columns', async () => {
    const lane = writeWarningLane(dir.path, 'single', 'U', 17);
    // Laneway's own columns only: the sheet takes the caller's next multiplexed reads.
    const sheet = readFileSync(lane.sheet, 'utf8')
      .split('\n')
      .map((line) => line.split(',').slice(0, 4).join(','))
      .join('\n');
    const path = join(dir.path, 'single_plain.csv');
    writeFileSync(path, sheet);
    const accepted = await uploadInChunks(
      base,
      '/upload/annotation',
      token,
      'single_plain.csv',
      readFileSync(path),
      100,
      {
        ignore_warnings: 'true',
      },
    );
    expect(accepted.status, accepted.text).toBe(200);
    const r1 = await uploadInChunks(base, '/upload/multiplexed', token, 'single_R1.fastq', readFileSync(lane.r1), 3000);
    expect(r1.body.id).toMatch(/^\d+$/);
    // R1 waits for an R2 that may follow; no lane exists until the grace period ends.
    await timers.pending(GRACE_MS);
    const before = (await call(service, 'GET', '/api/lanes/', { token: admin.token })).body.items as unknown as Lane[];
    expect(before.find((l) => l.name === 'single_plain')).toBeUndefined();
    expect(timers.fire(GRACE_MS)).toBe(1);
    const done = await finished('single_plain');
    expect(done.status).toBe('complete');
    expect(done.paired).toBe(false);
    expect(Object.fromEntries(done.samples.map((s) => [s.name, s.reads]))).toEqual(lane.expected);
  });

  it("warns about sample names already on the service when the sheet arrives (the lane path's rule)", async () => {
    // The single-end lane above made U01..U03: the same sheet again names them a second time.
    const lane = writeWarningLane(dir.path, 'again', 'U', 18);
    const sheet = readFileSync(lane.sheet, 'utf8')
      .split('\n')
      .map((line) => line.split(',').slice(0, 4).join(','))
      .join('\n');
    const refused = await uploadInChunks(base, '/upload/annotation', token, 'again.csv', Buffer.from(sheet), 100);
    expect(refused.status).toBe(400);
    const warnings = (refused.body.warnings as Array<{ message: string }>).map((w) => w.message);
    for (const name of ['U01', 'U02', 'U03'])
      expect(warnings).toContainEqual(expect.stringContaining(`"${name}" is already a sample on the service`));
    // Accepted once the caller says so (flowbio's ignore_warnings), as on the Lane screen.
    const accepted = await uploadInChunks(base, '/upload/annotation', token, 'again.csv', Buffer.from(sheet), 100, {
      ignore_warnings: 'true',
    });
    expect(accepted.status, accepted.text).toBe(200);
  });
});
