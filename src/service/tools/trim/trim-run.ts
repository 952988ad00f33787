/**
 * Adapter and quality trimming of single or paired reads, in cutadapt's order: 3' quality
 * trimming (`-q`), then 3' adapter removal (`-a`/`-A`, no indels), then the minimum-length
 * filter (`-m`), which drops a pair when either read is too short (cutadapt's
 * `--pair-filter=any`), so both outputs stay in step.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { KNOWN_ADAPTERS } from '../qc/known-adapters';
import { adapterBytes, adapterCut } from './adapter-match';
import { detectAdapter } from './auto-adapter';
import { FastqCursor, type FastqRecord } from './fastq-cursor';
import { FastqWriter } from './fastq-writer';
import { qualityCut } from './quality-trim';
import { pairingMessage, pairName } from '../../../shared/read-names';

export interface ResolvedAdapter {
  name: string;
  sequence: string;
  source: 'given' | 'known' | 'auto' | 'sample-sheet';
}

export interface TrimOptions {
  read1: string;
  read2?: string;
  out1: string;
  out2?: string;
  adapter1: ResolvedAdapter | null;
  adapter2: ResolvedAdapter | null;
  qualityCutoff: number;
  minLength: number;
  errorRate: number;
  minOverlap: number;
  maxReads?: number;
  onProgress?: (fraction: number) => void;
}

export interface TrimReport {
  read1: string;
  read2: string | null;
  adapters: { read1: ResolvedAdapter | null; read2: ResolvedAdapter | null };
  parameters: { quality_cutoff: number; min_length: number; error_rate: number; min_overlap: number };
  reads: {
    input: number;
    with_adapter_read1: number;
    with_adapter_read2: number;
    quality_trimmed: number;
    too_short: number;
    written: number;
  };
  bases: { input: number; quality_trimmed: number; adapter_trimmed: number; written: number };
  truncated: boolean;
}

/** Turns the `adapter` parameter (auto or empty, none, a known adapter's name or alias, or a sequence) into an adapter. */
export async function resolveAdapter(spec: string | undefined, reads: string): Promise<ResolvedAdapter | null> {
  const value = (spec ?? '').trim() || 'auto';
  if (value.toLowerCase() === 'none') return null;
  if (value.toLowerCase() === 'auto') {
    const { adapter } = await detectAdapter(reads);
    return adapter ? { name: adapter.name, sequence: adapter.sequence, source: 'auto' } : null;
  }
  const key = value.toLowerCase();
  const known = KNOWN_ADAPTERS.find((a) => a.name.toLowerCase() === key || a.aliases.includes(key));
  if (known) return { name: known.name, sequence: known.sequence, source: 'known' };
  if (/^[ACGTN]+$/i.test(value)) return { name: 'custom', sequence: value.toUpperCase(), source: 'given' };
  throw new Error(`adapter "${value}" is not auto, none, a known adapter name or a DNA sequence`);
}

interface Side {
  adapter: Uint8Array | null;
  withAdapter: number;
}

function trimmedLength(r: FastqRecord, side: Side, opts: TrimOptions, totals: TrimReport['bases']): [number, boolean] {
  const q = qualityCut(r.buf, r.qualStart, r.length, opts.qualityCutoff);
  totals.quality_trimmed += r.length - q;
  let keep = q;
  if (side.adapter) {
    keep = adapterCut(r.buf, r.seqStart, q, side.adapter, opts);
    if (keep < q) side.withAdapter++;
    totals.adapter_trimmed += q - keep;
  }
  return [keep, q < r.length];
}

/** Trims one sample's reads into `out1` (and `out2`); resolves with the report. */
export async function runTrim(opts: TrimOptions): Promise<TrimReport> {
  if (opts.read2 && !opts.out2) throw new Error('paired input needs a second output');
  const size = (await stat(opts.read1)).size + (opts.read2 ? (await stat(opts.read2)).size : 0);
  const c1 = new FastqCursor(opts.read1);
  const c2 = opts.read2 ? new FastqCursor(opts.read2) : null;
  const w1 = new FastqWriter(opts.out1);
  const w2 = opts.out2 && c2 ? new FastqWriter(opts.out2) : null;
  const s1: Side = { adapter: opts.adapter1 ? adapterBytes(opts.adapter1.sequence) : null, withAdapter: 0 };
  const s2: Side = { adapter: opts.adapter2 ? adapterBytes(opts.adapter2.sequence) : null, withAdapter: 0 };
  const bases = { input: 0, quality_trimmed: 0, adapter_trimmed: 0, written: 0 };
  const reads = {
    input: 0,
    with_adapter_read1: 0,
    with_adapter_read2: 0,
    quality_trimmed: 0,
    too_short: 0,
    written: 0,
  };
  const limit = opts.maxReads ?? Infinity;
  try {
    while (reads.input < limit) {
      const a = await c1.next();
      const b = c2 ? await c2.next() : null;
      if (!a) {
        if (b) throw new Error(`${basename(opts.read2!)} has more reads than ${basename(opts.read1)}`);
        break;
      }
      if (c2 && !b) throw new Error(`${basename(opts.read1)} has more reads than ${basename(opts.read2!)}`);
      reads.input++;
      if (b) {
        // Pairs that diverge after the service's check of the first 10,000 stop the run the same way.
        const n1 = pairName(a.buf.toString('latin1', a.headerStart, a.headerEnd));
        const n2 = pairName(b.buf.toString('latin1', b.headerStart, b.headerEnd));
        if (n1 !== n2) throw new Error(`INVALID_PAIRING: ${pairingMessage(reads.input, n1, n2)}`);
      }
      bases.input += a.length + (b ? b.length : 0);
      const [keepA, qa] = trimmedLength(a, s1, opts, bases);
      const [keepB, qb] = b ? trimmedLength(b, s2, opts, bases) : [0, false];
      if (qa || qb) reads.quality_trimmed++;
      if (keepA < opts.minLength || (b && keepB < opts.minLength)) {
        reads.too_short++;
      } else {
        reads.written++;
        bases.written += keepA + (b ? keepB : 0);
        await w1.write(a, keepA);
        if (b && w2) await w2.write(b, keepB);
      }
      if ((reads.input & 0x3fff) === 0) opts.onProgress?.(size ? (c1.consumed + (c2?.consumed ?? 0)) / size : 1);
    }
  } finally {
    await c1.close();
    await c2?.close();
    await w1.close();
    await w2?.close();
  }
  reads.with_adapter_read1 = s1.withAdapter;
  reads.with_adapter_read2 = s2.withAdapter;
  opts.onProgress?.(1);
  return {
    read1: basename(opts.read1),
    read2: opts.read2 ? basename(opts.read2) : null,
    adapters: { read1: opts.adapter1, read2: opts.read2 ? opts.adapter2 : null },
    parameters: {
      quality_cutoff: opts.qualityCutoff,
      min_length: opts.minLength,
      error_rate: opts.errorRate,
      min_overlap: opts.minOverlap,
    },
    reads,
    bases,
    truncated: opts.maxReads !== undefined && reads.input >= opts.maxReads,
  };
}
