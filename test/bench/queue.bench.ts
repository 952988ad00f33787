/**
 * The durable upload queue against the floor of any HTTP upload on this machine: a 2 GiB FASTQ
 * through the queue (hashing, journal, checksums verified) into `laneway serve` over loopback,
 * against the upload benchmark's bare transfer (undici into a node:http server that only
 * writes bodies to disk) in the same run, with the queue's peak RSS. The 2,000 small files
 * are queue-files.bench.ts (`npm run bench -- small`).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANEWAY_BIN } from '../helpers/cli';
import { startLinkModel, type LinkModelOptions } from '../helpers/link-model';
import type { Benchmark } from './harness';

const MB = 1024 * 1024;
const PROCS = fileURLToPath(new URL('./queue-bench-procs.ts', import.meta.url));
const UPLOAD_PROCS = fileURLToPath(new URL('./upload-bench-procs.ts', import.meta.url));

/** A FASTQ file of exactly `size` bytes, reused when present (the upload benchmark makes the same). */
export function makeFastq(path: string, size: number, salt = 7): void {
  if (existsSync(path) && statSync(path).size === size) return;
  let seed = salt;
  const records: string[] = [];
  for (let i = 0; i < 4096; i++) {
    let seq = '';
    for (let j = 0; j < 150; j++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      seq += 'ACGT'[seed >>> 30];
    }
    records.push(`@bench.${salt}.${i}\n${seq}\n+\n${'F'.repeat(150)}\n`);
  }
  const block = Buffer.from(records.join(''));
  const fd = openSync(path, 'w');
  let written = 0;
  while (written + block.length <= size) written += writeSync(fd, block);
  if (size > written) writeSync(fd, block.subarray(0, size - written));
  closeSync(fd);
}

export interface Proc {
  next<T>(): Promise<T>;
  done: Promise<number | null>;
  kill(): void;
}

export function start(args: string[]): Proc {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async next<T>() {
      for (;;) {
        const { value, done } = await lines.next();
        if (done) throw new Error('process ended without its JSON line');
        try {
          return JSON.parse(value as string) as T;
        } catch {
          // not a JSON line
        }
      }
    },
    done: new Promise((r) => child.on('exit', (code) => r(code))),
    kill: () => child.kill('SIGTERM'),
  };
}

export interface QueueRun {
  seconds: number;
  files: number;
  verified: boolean;
  rss: number;
  /** The send window's largest and last size (bytes) and how often it shrank. */
  window?: { peak: number; last: number; shrinks: number };
}

/**
 * The queue's upload of `input` (a file, or a folder ending in /) into `laneway serve`, optionally
 * through a link model; with `samples`, each file a single-end sample created once it is in.
 */
export async function throughQueue(
  workDir: string,
  input: string,
  options: { chunk?: number; link?: LinkModelOptions; folder?: string; samples?: boolean } = {},
): Promise<QueueRun> {
  // A caller that keeps each run's files until its rounds end names a folder per run (see
  // queue-files.bench.ts: deleting thousands of files slows the next run's file creation).
  const data = join(workDir, options.folder ?? 'queue-service');
  const state = join(workDir, `${options.folder ?? 'queue'}-state`);
  rmSync(data, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
  const service = start([LANEWAY_BIN, 'serve', '--port', '0', '--data', data, '--json']);
  try {
    const { url } = await service.next<{ url: string }>();
    const body = JSON.stringify({ username: 'bench', password: 'bench-password', email: 'b@lab.test', name: 'Bench' });
    await fetch(`${url}/api/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const link = options.link
      ? await startLinkModel({ host: '127.0.0.1', port: Number(new URL(url).port) }, options.link)
      : null;
    const chunk = String(options.chunk ?? 0);
    try {
      const q = start([
        '--import',
        'tsx',
        PROCS,
        options.samples ? 'samples' : 'queue',
        link?.url ?? url,
        'bench',
        'bench-password',
        state,
        input,
        chunk,
      ]);
      const res = await q.next<QueueRun>();
      await q.done;
      if (!res.verified) throw new Error('queue upload not verified');
      return res;
    } finally {
      await link?.close();
    }
  } finally {
    service.kill();
    await service.done;
    // A named folder is the caller's to remove: removing 2,000 stored files here, right after
    // the queue's round, slowed the next round's file creation (queue-files.bench.ts), and that
    // round was the bare transfer's whenever the queue went first.
    if (!options.folder) {
      rmSync(data, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    }
  }
}

export async function bare(
  workDir: string,
  mode: 'bare-client' | 'bare-many',
  input: string,
  options: { folder?: string; keep?: boolean } = {},
): Promise<{ seconds: number }> {
  const dir = join(workDir, options.folder ?? 'queue-bare');
  rmSync(dir, { recursive: true, force: true });
  const server = start(['--import', 'tsx', UPLOAD_PROCS, 'bare-server', dir]);
  try {
    const { port } = await server.next<{ port: number }>();
    const origin = `http://127.0.0.1:${port}`;
    const client =
      mode === 'bare-client'
        ? start(['--import', 'tsx', UPLOAD_PROCS, mode, origin, input, String(8 * MB)])
        : start(['--import', 'tsx', PROCS, mode, origin, input]);
    const res = await client.next<{ seconds: number }>();
    await client.done;
    return res;
  } finally {
    server.kill();
    await server.done;
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = {
  name: 'upload queue',
  async run(ctx) {
    const size = ctx.quick ? 256 * MB : 2048 * MB;
    const label = ctx.quick ? '256 MiB' : '2 GiB';
    const big = join(ctx.workDir, ctx.quick ? 'upload-256m.fastq' : 'upload-2g.fastq');
    makeFastq(big, size);
    ctx.log(`bare transfer of ${label}...`);
    const floor = await bare(ctx.workDir, 'bare-client', big);
    ctx.log(`queue upload of ${label}...`);
    const ours = await throughQueue(ctx.workDir, big);
    const mbps = (s: number) => size / MB / s;
    ctx.log(
      `bare ${mbps(floor.seconds).toFixed(0)} MB/s, queue ${mbps(ours.seconds).toFixed(0)} MB/s, queue RSS ${ours.rss.toFixed(0)} MB`,
    );

    return [
      {
        name: `queue upload ${label}, loopback, sha256 verified`,
        unit: 'MB/s',
        reference: { tool: 'bare node:http + undici (upload benchmark)', value: mbps(floor.seconds) },
        ours: mbps(ours.seconds),
        higherIsBetter: true,
        goal: 0.7,
        notes: `queue peak RSS ${ours.rss.toFixed(0)} MB`,
      },
      {
        name: `queue upload ${label}: peak RSS of the queue process`,
        unit: 'MB',
        reference: { tool: 'budget', value: 300 },
        ours: ours.rss,
        higherIsBetter: false,
        goal: 1,
      },
    ];
  },
};
