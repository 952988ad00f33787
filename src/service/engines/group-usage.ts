/**
 * CPU and memory of a run's process group, sampled while it runs, on every platform that has a
 * way to list processes by group:
 * - Linux: /proc (per-process CPU ticks and resident pages; exact and cheap).
 * - macOS, the BSDs, and Linux without /proc: `ps -A -o pid=,pgid=,rss=,time=,stat=` (resident KiB and
 *   cumulative CPU time; Linux's procps prints whole seconds, macOS hundredths).
 * - Windows: none. Its tools that list processes (`wmic`, `tasklist`) know no process groups and
 *   neither is on this build machine to test against; runs there get the figures their
 *   processes report about themselves (self-usage.ts, built-in workers) and none otherwise.
 * A sample covers the processes alive at that moment; a step that starts and ends between two
 * samples is seen by none, which is why built-in workers also report their own use at exit.
 * Cluster jobs run elsewhere and are not seen at all (the scheduler's accounting is the source).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { groupMembers } from './process-tree';

export interface MemberUsage {
  pid: number;
  /** CPU seconds (user + system) the process has used since it started. */
  cpuSeconds: number;
  rssBytes: number;
}

/** Lists a process group's live members with their cumulative CPU and resident memory. */
export type UsageSource = (pgid: number) => Promise<MemberUsage[]>;

const CLOCK_TICKS = 100;

/** Linux's /proc. */
export const procUsage: UsageSource = (pgid) =>
  Promise.resolve(
    groupMembers(pgid).map((m) => ({ pid: m.pid, cpuSeconds: m.ticks / CLOCK_TICKS, rssBytes: m.rssBytes })),
  );

/**
 * `ps`'s cumulative CPU time: `[[DD-]HH:]MM:SS[.cc]` (procps: `00:01:02` or `1-02:03:04`;
 * macOS: `1:02.03`). NaN when it is none of these.
 */
export function parsePsTime(text: string): number {
  const m = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return NaN;
  const [, days, hours, minutes, seconds] = m;
  return Number(days ?? 0) * 86400 + Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/** Parses `ps -A -o pid=,pgid=,rss=,time=,stat=` output into the live members of `pgid`. */
export function parsePsOutput(text: string, pgid: number): MemberUsage[] {
  const out: MemberUsage[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 5) continue;
    const [pid, group, rss, time, state] = fields as [string, string, string, string, string];
    // Zombies have ended (as /proc's reader leaves them out).
    if (Number(group) !== pgid || state.startsWith('Z')) continue;
    const cpuSeconds = parsePsTime(time);
    if (!Number.isFinite(cpuSeconds) || !/^\d+$/.test(pid) || !/^\d+$/.test(rss)) continue;
    out.push({ pid: Number(pid), cpuSeconds, rssBytes: Number(rss) * 1024 });
  }
  return out;
}

/** `ps`, where there is no /proc. */
export const psUsage: UsageSource = (pgid) =>
  new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,pgid=,rss=,time=,stat='], { timeout: 5000, maxBuffer: 16 << 20 }, (err, stdout) =>
      resolve(err ? [] : parsePsOutput(String(stdout), pgid)),
    );
  });

/** The source for this platform, or null where none exists (Windows). */
export function platformUsageSource(platform = process.platform): UsageSource | null {
  if (platform === 'win32') return null;
  if (platform === 'linux' && existsSync('/proc/self/stat')) return procUsage;
  return psUsage;
}

/** Samples a group's CPU (percent of one core since the last sample) and resident memory. */
export class GroupSampler {
  private last = new Map<number, number>();
  private lastAt = 0;
  constructor(
    readonly pgid: number,
    private readonly source: UsageSource,
  ) {}

  async sample(now = performance.now()): Promise<{ cpu_percent: number; memory_gb: number; pids: number }> {
    const members = await this.source(this.pgid);
    const seconds = this.lastAt ? (now - this.lastAt) / 1000 : 0;
    let cpu = 0;
    let rss = 0;
    const seen = new Map<number, number>();
    for (const m of members) {
      cpu += Math.max(0, m.cpuSeconds - (this.last.get(m.pid) ?? 0));
      rss += m.rssBytes;
      seen.set(m.pid, m.cpuSeconds);
    }
    this.last = seen;
    this.lastAt = now;
    const percent = seconds > 0 ? (cpu / seconds) * 100 : 0;
    return {
      cpu_percent: Math.round(percent * 10) / 10,
      memory_gb: Math.round((rss / 1024 ** 3) * 1000) / 1000,
      pids: members.length,
    };
  }
}
