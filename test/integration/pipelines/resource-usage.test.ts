/**
 * Resource figures that do not depend on /proc alone: the `ps` sampler (the one macOS and the
 * BSDs use) measures a real busy process group as /proc does, and built-in workers report their
 * own use, so a step shorter than the sampling interval has cpu_percent and memory_gb. The
 * service under test samples once an hour, so every figure it shows came from the workers.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GroupSampler,
  parsePsOutput,
  parsePsTime,
  platformUsageSource,
  procUsage,
  psUsage,
} from '../../../src/service/engines/group-usage';
import { killGroup, spawnGroup } from '../../../src/service/engines/process-tree';
import { fastqText } from '../../helpers/qc-fastq';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 90_000 });

type Process = {
  name: string;
  status: string;
  start_time: string;
  end_time: string;
  resources: { cpu_percent: number | null; memory_gb: number | null };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ps output', () => {
  it("reads procps's and macOS's CPU time formats", () => {
    expect(parsePsTime('00:00:07')).toBe(7);
    expect(parsePsTime('01:02:03')).toBe(3723);
    expect(parsePsTime('2-00:00:01')).toBe(172801);
    expect(parsePsTime('0:01.50')).toBe(1.5);
    expect(parsePsTime('12:34.05')).toBeCloseTo(754.05, 6);
    expect(parsePsTime('n/a')).toBeNaN();
    const output =
      '  12  12  2048 0:01.00 S\n  13  12   512 00:00:02 R+\n  14  99  4096 00:00:09 S\n  15  12  0 0:00.00 Z\n';
    expect(parsePsOutput(output, 12)).toEqual([
      { pid: 12, cpuSeconds: 1, rssBytes: 2048 * 1024 },
      { pid: 13, cpuSeconds: 2, rssBytes: 512 * 1024 },
    ]);
  });

  it('picks /proc on Linux, ps on macOS, nothing on Windows', () => {
    expect(platformUsageSource('linux')).toBe(procUsage);
    expect(platformUsageSource('darwin')).toBe(psUsage);
    expect(platformUsageSource('freebsd')).toBe(psUsage);
    expect(platformUsageSource('win32')).toBeNull();
  });
});

describe('sampling a real busy process group', () => {
  it('ps and /proc see the same group, its CPU time and its memory', async () => {
    // A child that holds 96 MB resident and keeps a core busy until it is killed (no wall-clock
    // limit: on a loaded machine it gets a sliver of a core, and the test waits for CPU seconds).
    const script = 'const b = Buffer.alloc(96 * 1024 * 1024, 1); let x = 0; for (;;) x = (x + b[x % b.length]) % 1e9;';
    const child = spawnGroup(process.execPath, ['-e', script], { stdio: 'ignore' });
    const pgid = child.pid!;
    const total = (members: Array<{ cpuSeconds: number }>) => members.reduce((a, m) => a + m.cpuSeconds, 0);
    try {
      // However loaded the machine, wait until the group has used 1.5 CPU seconds.
      while (total(await procUsage(pgid)) < 1.5) await sleep(200);
      // The group's keeper forks short-lived helpers (sleep, sed, cut) once a second, so two
      // snapshots taken a moment apart can differ by one of them: take pairs until one pair is
      // taken between two forks. Twenty pairs all straddling a fork would be a real difference.
      const pids = (members: Array<{ pid: number }>) => members.map((m) => m.pid).sort((x, y) => x - y);
      let [fromProc, fromPs] = [await procUsage(pgid), await psUsage(pgid)];
      for (let pair = 1; pair < 20 && pids(fromPs).join() !== pids(fromProc).join(); pair++) {
        [fromProc, fromPs] = [await procUsage(pgid), await psUsage(pgid)];
      }
      expect(pids(fromPs)).toEqual(pids(fromProc));
      expect(fromPs.map((m) => m.pid)).toContain(pgid);
      expect(total(fromProc)).toBeGreaterThanOrEqual(1.5);
      // procps prints whole seconds, truncated; the ps call came a moment later.
      expect(total(fromPs)).toBeGreaterThanOrEqual(Math.floor(total(fromProc)) - 0.01);
      expect(total(fromPs)).toBeLessThan(total(fromProc) + 1.5);
      // Memory as each sampler reports it: the 96 MB buffer, the same from both.
      // (The same pairing as above: a pair taken across one of the keeper's forks counts one more.)
      let [a, b] = [await new GroupSampler(pgid, procUsage).sample(), await new GroupSampler(pgid, psUsage).sample()];
      for (let pair = 1; pair < 20 && a.pids !== b.pids; pair++) {
        [a, b] = [await new GroupSampler(pgid, procUsage).sample(), await new GroupSampler(pgid, psUsage).sample()];
      }
      expect(b.pids).toBe(a.pids);
      expect(a.memory_gb).toBeGreaterThan(0.09);
      expect(b.memory_gb).toBeGreaterThan(0.09);
      expect(Math.abs(a.memory_gb - b.memory_gb)).toBeLessThan(0.03);
      // CPU percent over an interval, from ps, once the group has used more than a whole CPU
      // second since (ps counts whole seconds), however long that takes on this machine.
      const ps = new GroupSampler(pgid, psUsage);
      const before = total(await procUsage(pgid));
      await ps.sample();
      while (total(await procUsage(pgid)) < before + 1.2) await sleep(200);
      expect((await ps.sample()).cpu_percent).toBeGreaterThan(0);
    } finally {
      await killGroup(pgid, 500);
    }
    expect(await psUsage(pgid)).toEqual([]);
  });
});

describe('self-reported figures through the service', () => {
  let kit: Kit;
  const previous = process.env.LANEWAY_SAMPLE_INTERVAL_MS;

  beforeAll(async () => {
    // Sampling once an hour: no figure below can come from the sampler.
    process.env.LANEWAY_SAMPLE_INTERVAL_MS = String(3_600_000);
    kit = await startKit();
  });
  afterAll(async () => {
    await kit.stop();
    if (previous === undefined) delete process.env.LANEWAY_SAMPLE_INTERVAL_MS;
    else process.env.LANEWAY_SAMPLE_INTERVAL_MS = previous;
  });

  it('a QC and a trimming step far shorter than the sampling interval have cpu_percent and memory_gb', async () => {
    const pipelines = (
      await kit.api<Array<{ name: string; versions: Array<{ id: number; is_latest: boolean }> }>>(
        '/api/pipelines',
        kit.adminToken,
      )
    ).body;
    const latest = (name: string) => pipelines.find((p) => p.name === name)!.versions.find((v) => v.is_latest)!.id;
    const sample = await kit.createSample(
      kit.adminToken,
      'tiny',
      await kit.upload(kit.adminToken, 'tiny_R1.fastq', fastqText({ reads: 50, length: 50, seed: 41 })),
    );
    for (const name of ['FASTQ Quality Control', 'Adapter Trimming']) {
      const run = await kit.run(kit.adminToken, latest(name), { samples: [sample] });
      expect(run.status).toBe(201);
      const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 90_000);
      expect(done.status).toBe('completed');
      const [step] = done.process_executions as Process[];
      expect(step!.status).toBe('completed');
      // Shorter than one sampling interval by far.
      expect(Date.parse(step!.end_time) - Date.parse(step!.start_time)).toBeLessThan(60_000);
      expect(step!.resources.cpu_percent).not.toBeNull();
      expect(step!.resources.cpu_percent!).toBeGreaterThan(0);
      // A Node worker holds tens of megabytes at least.
      expect(step!.resources.memory_gb!).toBeGreaterThan(0.01);
      expect(step!.resources.memory_gb!).toBeLessThan(8);
    }
  });
});
