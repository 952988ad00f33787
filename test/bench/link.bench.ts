/**
 * Uploads over a long link: the durable upload queue into `laneway serve` through the tests'
 * link model (test/helpers/link-model.ts: 40 ms each way, 400 Mbit/s shared, on loopback)
 * against one raw TCP stream carrying the same bytes through the same model in the same run:
 * a 64 MiB file in the default 8 MiB chunks and in the specification's 1 MB chunks, and 200
 * files of 1 MB (a Nanopore batch folder), each with the queue's peak RSS.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLinkModel, type LinkModelOptions } from '../helpers/link-model';
import type { BenchFigure, Benchmark } from './harness';
import { makeFastq, throughQueue } from './queue.bench';

const MB = 1024 * 1024;
const PROCS = fileURLToPath(new URL('./link-bench-procs.ts', import.meta.url));
const LINK: LinkModelOptions = { delayMs: 40, mbit: 400 };

function jsonLine<T>(args: string[]): { value: Promise<T>; kill(): void; done: Promise<unknown> } {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const value = new Promise<T>((resolve, reject) => {
    lines.on('line', (l) => {
      try {
        resolve(JSON.parse(l) as T);
      } catch {
        // not a JSON line
      }
    });
    child.on('exit', () => reject(new Error('process ended without its JSON line')));
  });
  return { value, kill: () => child.kill('SIGTERM'), done: new Promise((r) => child.on('exit', r)) };
}

/** One raw TCP stream of `bytes` bytes through the link model, in MB/s. */
async function rawStream(path: string, bytes: number): Promise<number> {
  const sink = jsonLine<{ port: number }>(['--import', 'tsx', PROCS, 'raw-sink', String(bytes)]);
  try {
    const { port } = await sink.value;
    const link = await startLinkModel({ host: '127.0.0.1', port }, LINK);
    try {
      const send = jsonLine<{ seconds: number }>([
        '--import',
        'tsx',
        PROCS,
        'raw-send',
        String(link.port),
        path,
        String(bytes),
      ]);
      const { seconds } = await send.value;
      await send.done;
      return bytes / MB / seconds;
    } finally {
      await link.close();
    }
  } finally {
    sink.kill();
    await sink.done;
  }
}

/** A folder of `count` FASTQ files of `size` bytes, each distinct (or the queue would deduplicate them). */
function manyFiles(dir: string, count: number, size: number): string {
  if (existsSync(join(dir, `f${String(count - 1).padStart(4, '0')}.fastq`))) return `${dir}/`;
  mkdirSync(dir, { recursive: true });
  const template = join(dir, 'template.tmp');
  makeFastq(template, size, 13);
  const bytes = readFileSync(template);
  for (let i = 0; i < count; i++) {
    const head = Buffer.from(`@unique.${i}\nACGT\n+\nFFFF\n`);
    writeFileSync(
      join(dir, `f${String(i).padStart(4, '0')}.fastq`),
      Buffer.concat([head, bytes.subarray(head.length)]),
    );
  }
  rmSync(template);
  return `${dir}/`;
}

export const benchmark: Benchmark = {
  name: 'upload queue over a long link',
  async run(ctx) {
    const size = 64 * MB;
    const big = join(ctx.workDir, 'link-64m.fastq');
    makeFastq(big, size, 17);
    const count = ctx.quick ? 50 : 200;
    const folder = manyFiles(join(ctx.workDir, `link-many-${count}`), count, 1_000_000);
    const figures: BenchFigure[] = [];
    const row = async (label: string, input: string, bytes: number, chunk?: number, goal?: number) => {
      ctx.log(`${label}: one raw TCP stream...`);
      const raw = await rawStream(big, bytes);
      ctx.log(`${label}: the queue...`);
      const ours = await throughQueue(ctx.workDir, input, { chunk, link: LINK });
      const mbps = bytes / MB / ours.seconds;
      ctx.log(`raw ${raw.toFixed(1)} MB/s, queue ${mbps.toFixed(1)} MB/s, queue RSS ${ours.rss.toFixed(0)} MB`);
      figures.push({
        name: `queue over 40 ms each way, 400 Mbit/s: ${label}`,
        unit: 'MB/s',
        reference: { tool: 'one raw TCP stream through the same link model', value: raw },
        ours: mbps,
        higherIsBetter: true,
        goal,
        notes: `queue peak RSS ${ours.rss.toFixed(0)} MB (budget 300); send window peak ${((ours.window?.peak ?? 0) / MB).toFixed(1)} MiB, shrank ${ours.window?.shrinks ?? 0} times; sha256 verified`,
      });
    };
    await row('64 MiB, default 8 MiB chunks', big, size, undefined, 0.9);
    await row('64 MiB, 1 MB chunks', big, size, 1_000_000, 0.8);
    await row(`${count} files of 1 MB`, folder, count * 1_000_000, undefined, 0.7);
    return figures;
  },
};
