/**
 * What the demultiplexing benchmarks share: whole-process timing (wall time and peak RSS, as
 * `/usr/bin/time` reports them), cached generated lanes and their prefixes, truth checks of an
 * output folder, and the reference tools' versions.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DesignLane } from '../helpers/design-lane-generator';
import { compareWithTruth } from '../helpers/fastq-generator';

/**
 * This machine's environment without NODE_EXTRA_CA_CERTS, or null when it has none: with it,
 * every Node process starts OpenSSL and reads the certificates first (some 40 ms here, beside
 * `node -e 0`'s 20 ms), which a workstation without a proxy's certificate never pays.
 */
export function withoutExtraCaCerts(): NodeJS.ProcessEnv | null {
  if (!process.env.NODE_EXTRA_CA_CERTS) return null;
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

export interface Timed {
  seconds: number;
  maxRssMb: number;
}

/**
 * Runs a command to its end under /usr/bin/time: wall seconds (measured around it, finer than
 * time's 10 ms steps) and peak RSS.
 */
export function timed(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Timed {
  const stats = join(cwd, '.time');
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', '-o', stats, cmd, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr.toString().slice(-2000)}`);
  const kb = Number(readFileSync(stats, 'utf8').trim().split(/\s+/).at(-1));
  return { seconds, maxRssMb: kb / 1024 };
}

export function fresh(dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

export const stem = (f: string) => f.replace(/\.fastq(\.gz)?$/, '');

/** Truth check of one tool's output folder; `name` maps its file names to samples. */
export function disagreements(lane: DesignLane, dir: string, name: (file: string) => string | null): number {
  const outputs = readdirSync(dir)
    .filter((f) => /\.fastq(\.gz)?$/.test(f) && !f.startsWith('.'))
    .flatMap((f) => {
      const sample = name(f);
      return sample ? [{ sample, path: join(dir, f) }] : [];
    });
  return compareWithTruth(lane.truth, outputs).disagreements;
}

/** Generates (or reuses) a lane in `dir`; the marker keeps it between runs. */
export function cachedLane(dir: string, key: string, make: () => DesignLane): DesignLane {
  mkdirSync(dir, { recursive: true });
  const marker = join(dir, 'lane.json');
  if (existsSync(marker)) {
    const cached = JSON.parse(readFileSync(marker, 'utf8')) as DesignLane & { key: string };
    if (cached.key === key && existsSync(cached.truth)) return cached;
  }
  fresh(dir);
  const lane = make();
  writeFileSync(marker, JSON.stringify({ ...lane, key }));
  return lane;
}

/** The lane's first `reads` reads (each file and the truth cut alike), cached in `dir`. */
export function lanePrefix(lane: DesignLane, dir: string, reads: number): DesignLane {
  mkdirSync(dir, { recursive: true });
  const cut = (path: string | undefined, linesPerRead: number) => {
    if (!path) return undefined;
    const out = join(dir, path.split('/').at(-1)!);
    const marker = `${out}.${reads}`;
    if (!existsSync(marker)) {
      const r = spawnSync('sh', ['-c', `head -n ${reads * linesPerRead} '${path}' > '${out}'`]);
      if (r.status !== 0) throw new Error(`head failed: ${r.stderr.toString()}`);
      writeFileSync(marker, '');
    }
    return out;
  };
  return {
    ...lane,
    read1: cut(lane.read1, 4)!,
    read2: cut(lane.read2, 4),
    index1: cut(lane.index1, 4),
    index2: cut(lane.index2, 4),
    truth: cut(lane.truth, 1)!,
  };
}

export function toolVersion(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  const text = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  return /(\d+\.\d+(\.\d+)?)/.exec(text)?.[1] ?? '?';
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The 1-minute load average, for the notes. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;
}
