/**
 * Reference indexes, built once per reference and reused by every run that names it: the
 * FASTA is stored once by content (sha256), so its indexes live beside a plain copy in
 * `<data>/references/<sha256>/` (ref.fa, ref.fa.fai from samtools faidx, ref.mmi from
 * minimap2, and bwa's files when a pipeline uses bwa). A folder is built under a temporary name
 * and renamed into place when complete, so a crash never leaves a half index that looks whole.
 */
import { execFile } from 'node:child_process';
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
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';
import type { ServiceContext } from '../context';
import { dataFilePath } from '../data/data.commands';
import { getDataRow } from '../data/data.store';

const run = promisify(execFile);
const building = new Map<string, Promise<void>>();

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

async function build(source: string, dir: string, kinds: IndexKind[]): Promise<void> {
  const tmp = `${dir}.tmp-${randomBytes(6).toString('hex')}`;
  mkdirSync(tmp, { recursive: true });
  try {
    const fasta = join(tmp, 'ref.fa');
    // Plain text for every tool: samtools faidx cannot index plain gzip (only bgzip).
    if (existsSync(join(dir, 'ref.fa')))
      await pipeline(createReadStream(join(dir, 'ref.fa')), createWriteStream(fasta));
    else if (await isGzip(source)) await pipeline(createReadStream(source), createGunzip(), createWriteStream(fasta));
    else await pipeline(createReadStream(source), createWriteStream(fasta));
    for (const kind of kinds) {
      if (kind === 'faidx') await run('samtools', ['faidx', fasta]);
      if (kind === 'minimap2') await run('minimap2', ['-d', join(tmp, 'ref.mmi'), fasta]);
      if (kind === 'bwa') await run('bwa', ['index', fasta]);
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
): Promise<ReferenceIndex> {
  const row = getDataRow(ctx, dataId);
  if (!row) throw new Error(`Reference data record ${dataId} no longer exists`);
  const dir = join(ctx.config.dataDir, 'references', row.checksum);
  const missing = () => kinds.filter((k) => !existsSync(marker(dir, k)));
  let built = false;
  while (missing().length) {
    const pending = building.get(row.checksum);
    if (pending) {
      await pending.catch(() => {});
      continue;
    }
    const job = build(dataFilePath(ctx, dataId), dir, missing()).finally(() => building.delete(row.checksum));
    building.set(row.checksum, job);
    await job;
    built = true;
  }
  statSync(join(dir, 'ref.fa'));
  return { fasta: join(dir, 'ref.fa'), built };
}
