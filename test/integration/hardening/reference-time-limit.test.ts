/**
 * Issue 24 item 6: "a 5 s limit ended the run at 20 s" while the run's reference index was being
 * built. A run of Read Alignment (the shipped Snakemake pipeline) with a time limit, on a FASTA
 * no run has indexed yet, reaches its limit while minimap2 is indexing: the run ends `failed`
 * with the time-limit message (no server path in it or in the log), no build is logged as done,
 * and the build's process group is gone. Time is the one fake: the service's clock hands the
 * time-limit timer to the test, which fires it once minimap2 runs, so nothing waits for a limit
 * to pass on the wall clock. minimap2 is held with SIGSTOP (reference-build-helpers.ts) so it
 * cannot finish before the limit ends it.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../../src/service/context';
import { groupMembers, holdLeader, processes } from './reference-build-helpers';
import { alignmentSuite } from './reference-run-suite';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const LIMIT_SECONDS = 2 * 3600;

/** Real timers, except the time limit's: kept for the test to fire. */
function testClock(limits: Array<() => void>): Clock {
  return {
    now: () => Date.now(),
    after(ms, fn) {
      if (ms === LIMIT_SECONDS * 1000) {
        limits.push(fn);
        return () => {
          const i = limits.indexOf(fn);
          if (i >= 0) limits.splice(i, 1);
        };
      }
      const t = setTimeout(fn, ms);
      t.unref();
      return () => clearTimeout(t);
    },
  };
}

describe("a run's reference build ends with the run's time limit (issue 24 item 6)", () => {
  const limits: Array<() => void> = [];
  const suite = alignmentSuite({ clock: testClock(limits) });

  it('the limit reached while minimap2 indexes: failed with the limit message, no path, the group gone', async () => {
    const { kit, align } = suite;
    const { reference, sample } = await suite.inputs(23);
    const run = await kit.run(kit.adminToken, align, {
      samples: [sample],
      parameters: { reference },
      resources: { time_limit: '2h' },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const id = run.body.id as number;
    // The build's minimap2 (the run's own engine has not started yet), held so it cannot finish.
    const leader = await vi.waitFor(
      () => {
        const held = holdLeader('minimap2', kit.service.dataDir);
        if (!held) throw new Error('minimap2 is not running yet');
        return held;
      },
      { timeout: 120_000, interval: 20 },
    );
    const group = leader.pgrp;
    expect(groupMembers(group).length).toBeGreaterThan(0);
    // The run's one time-limit timer, armed when it started: the limit is reached now.
    expect(limits).toHaveLength(1);
    limits[0]!();

    const done = await kit.waitFor(kit.adminToken, id, ['cancelled', 'failed', 'completed'], 30_000);
    expect(done.status).toBe('failed');
    expect(done.error).toBe(`Time limit of ${LIMIT_SECONDS} s exceeded: the run was stopped`);
    const logs = await suite.logMessages(id);
    expect(logs).toContain(`Time limit of ${LIMIT_SECONDS} s exceeded: the run was stopped`);
    expect(logs.filter((m) => /^Reference genome\.fa: built/.test(m))).toEqual([]);
    expect(JSON.stringify(done)).not.toContain(kit.service.dataDir);
    expect(JSON.stringify(logs)).not.toContain(kit.service.dataDir);
    // The build's whole group (the tool and its keeper's watcher) is gone, and nothing else of it.
    await vi.waitFor(() => expect(groupMembers(group)).toEqual([]), { timeout: 10_000, interval: 20 });
    expect(processes('minimap2', kit.service.dataDir)).toEqual([]);
    expect(processes('samtools', kit.service.dataDir)).toEqual([]);
    // The timer is released with the run.
    expect(limits).toHaveLength(0);
  });
});
