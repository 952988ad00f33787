/**
 * Reference indexes, built once per reference and reused by every run that names it: the
 * FASTA is stored once by content (sha256), so its indexes live beside a plain copy in
 * `<data>/references/<sha256>/` (ref.fa, ref.fa.fai from samtools faidx, ref.mmi from
 * minimap2, and bwa's files when a pipeline uses bwa). A folder is built under a temporary name
 * and renamed into place when complete, so a crash never leaves a half index that looks whole.
 *
 * A build is part of the run that asked for it (issue 24): its tools run as a process group
 * with the keeper (they end with the service, however it ends), the run's cancel and time limit
 * end them, the run samples their resources, a FASTA may inflate to at most maxReferenceBytes(),
 * and failure messages name files, never the service's folders.
 */
import { randomBytes } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ServiceContext } from '../context';
import { dataFilePath } from '../data/data.commands';
import { getDataRow } from '../data/data.store';
import { killGroup, spawnGroup } from '../engines/process-tree';

/** The most a reference may inflate to (a human genome is 3.1 GB); the env variable changes it. */
export function maxReferenceBytes(): number {
  return Number(process.env.LANEWAY_MAX_REFERENCE_BYTES) || 8 * 1024 ** 3;
}

/** The run a build belongs to: its stop signal (cancel, time limit) and its process groups. */
export interface BuildHooks {
  signal?: AbortSignal;
  spawned?: (pgid: number) => void;
}

/** A message with every absolute path reduced to its file name. */
function withoutPaths(text: string): string {
  return text.replace(/(?:\/[^\s'":/]+)+\/?/g, (p) => basename(p));
}

/** Runs one index tool as its own process group, ended by the run's signal. */
function runTool(tool: string, args: string[], hooks: BuildHooks): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnGroup(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const stop = () => {
      if (child.pid) void killGroup(child.pid);
    };
    hooks.signal?.addEventListener('abort', stop, { once: true });
    if (hooks.signal?.aborted) stop();
    if (child.pid) hooks.spawned?.(child.pid);
    child.on('close', (code, sig) => {
      hooks.signal?.removeEventListener('abort', stop);
      // The group's keeper outlives the tool: end it with whatever else is left.
      stop();
      if (hooks.signal?.aborted) return reject(hooks.signal.reason as Error);
      if (code === 0) return resolve();
      const last = stderr.trim().split('\n').at(-1) ?? '';
      reject(new Error(`Indexing the reference with ${tool} failed (${sig ?? `exit ${code}`}): ${withoutPaths(last)}`));
    });
  });
}

/** Passes bytes through, failing once more than `max` went by. */
function sizeBound(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) {
        done(
          new Error(
            `The reference inflates to more than ${(max / 1024 ** 3).toFixed(1)} GiB, the most the service indexes`,
          ),
        );
      } else done(null, chunk);
    },
  });
}

export interface ReferenceIndex {
  /** The plain FASTA with its indexes beside it (ref.fa.fai, ref.mmi, bwa's ref.fa.*). */
  fasta: string;
  /** True when this call built the indexes, false when they were already there. */
  built: boolean;
}

export type IndexKind = 'faidx' | 'minimap2' | 'bwa';

function marker(dir: string, kind: IndexKind): string {
  return join(dir, `.${kind}.done`);
}

async function isGzip(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

async function build(source: string, dir: string, kinds: IndexKind[], hooks: BuildHooks): Promise<void> {
  const tmp = `${dir}.tmp-${randomBytes(6).toString('hex')}`;
  mkdirSync(tmp, { recursive: true });
  try {
    const fasta = join(tmp, 'ref.fa');
    // Plain text for every tool: samtools faidx cannot index plain gzip (only bgzip).
    const opts = hooks.signal ? { signal: hooks.signal } : {};
    if (existsSync(join(dir, 'ref.fa')))
      await pipeline(createReadStream(join(dir, 'ref.fa')), createWriteStream(fasta), opts);
    else if (await isGzip(source))
      await pipeline(
        createReadStream(source),
        createGunzip(),
        sizeBound(maxReferenceBytes()),
        createWriteStream(fasta),
        opts,
      );
    else await pipeline(createReadStream(source), sizeBound(maxReferenceBytes()), createWriteStream(fasta), opts);
    for (const kind of kinds) {
      if (kind === 'faidx') await runTool('samtools', ['faidx', fasta], hooks);
      if (kind === 'minimap2') await runTool('minimap2', ['-d', join(tmp, 'ref.mmi'), fasta], hooks);
      if (kind === 'bwa') await runTool('bwa', ['index', fasta], hooks);
    }
    // Indexes already present stay; the new ones join them.
    if (existsSync(dir)) {
      for (const kind of kinds) {
        for (const f of kind === 'faidx' ? ['ref.fa.fai'] : kind === 'minimap2' ? ['ref.mmi'] : bwaFiles()) {
          renameSync(join(tmp, f), join(dir, f));
        }
        writeFileSync(marker(dir, kind), '');
      }
    } else {
      for (const kind of kinds) writeFileSync(marker(tmp, kind), '');
      renameSync(tmp, dir);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function bwaFiles(): string[] {
  return ['amb', 'ann', 'bwt', 'pac', 'sa'].map((e) => `ref.fa.${e}`);
}

/**
 * The indexed reference for a FASTA data record: built on first use (concurrent callers share
 * one build), reused afterwards.
 */
export async function referenceIndex(
  ctx: ServiceContext,
  dataId: number,
  kinds: IndexKind[] = ['faidx', 'minimap2'],
  hooks: BuildHooks = {},
): Promise<ReferenceIndex> {
  const row = getDataRow(ctx, dataId);
  if (!row) throw new Error(`Reference data record ${dataId} no longer exists`);
  const dir = join(ctx.config.dataDir, 'references', row.checksum);
  const missing = () => kinds.filter((k) => !existsSync(marker(dir, k)));
  let built = false;
  const building = ctx.parts.referenceBuilds;
  while (missing().length) {
    const pending = building.get(row.checksum);
    if (pending) {
      // Another run's build: waited for, but this run's own stop still stops the wait.
      await Promise.race([pending.catch(() => {}), stopped(hooks.signal)]);
      if (hooks.signal?.aborted) throw hooks.signal.reason as Error;
      continue;
    }
    const job = build(dataFilePath(ctx, dataId), dir, missing(), hooks).finally(() => building.delete(row.checksum));
    building.set(row.checksum, job);
    try {
      await job;
    } catch (err) {
      if (hooks.signal?.aborted) throw hooks.signal.reason as Error;
      // The run's message names files, never the service's folders.
      throw Object.assign(new Error(withoutPaths((err as Error).message)), { code: (err as { code?: unknown }).code });
    }
    built = true;
  }
  statSync(join(dir, 'ref.fa'));
  return { fasta: join(dir, 'ref.fa'), built };
}

function stopped(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise(() => {});
  if (signal.aborted) return Promise.resolve();
  return new Promise((r) => signal.addEventListener('abort', () => r(), { once: true }));
}
