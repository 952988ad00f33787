/**
 * Quality control of one FASTQ file, the code both `laneway qc` and the QC pipeline run. Large
 * inputs are scanned by this thread and one helper thread per further granted CPU, while this
 * thread also reads and cuts record-aligned buffers; small inputs and test-mode runs (a read
 * limit) are scanned inline.
 * Counters merge by addition and the sequence sample is taken in file order, so the result is
 * the same whichever way the file was split.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { FastqFormatError } from '../fastq-format-error';
import { scanRecords } from './fastq-scan';
import { createCounts, type QcCounts } from './qc-counts';
import { buildResult, type QcResult } from './qc-result';
import { detectEncoding, encodingRefusal, type EncodingChoice } from './quality-encoding';
import { isGzipFile, recordChunks } from './record-chunks';
import { SAMPLE_READS, SampleCollector, type SampleChunk } from './sequence-sample';
import { ScanThreads } from './scan-threads';

export interface QcOptions {
  /** Scanning threads (the CPUs granted); 1 scans on the calling thread. */
  threads?: number;
  /** Stop after this many reads (test mode). */
  maxReads?: number;
  /** Called with the fraction of the file read, 0..1. */
  onProgress?: (fraction: number) => void;
  /** Inputs from this size on are scanned by threads (tests lower it to cover that path). */
  threadedMinBytes?: number;
  /** Size of the record-aligned buffers (tests lower it to split small files). */
  chunkBytes?: number;
  /** The file name to report (the stored file's path may be a checksum); default: its base name. */
  displayName?: string;
  /** The sample the file belongs to, carried into the result and its report. */
  sample?: string;
  /** Wait for the helper threads before scanning (tests, so that the threads surely take part). */
  awaitThreads?: boolean;
  /** A Phred+64 (or Solexa) file is refused unless `phred64` asks to read it with offset 64. */
  qualityEncoding?: EncodingChoice;
}

/** Input that is not a readable FASTQ file; the message says why and where. */
export class QcInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QcInputError';
  }
}

/** Below this size threads cost more to start than they save. */
const THREADED_MIN_BYTES = 24 << 20;

function inputError(err: unknown, path: string, name: string): QcInputError {
  if (err instanceof QcInputError) return err;
  if (err instanceof FastqFormatError) return new QcInputError(`${name}: ${err.message}`);
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return new QcInputError(`${path}: no such file`);
  if (e.code === 'EACCES' || e.code === 'EISDIR') return new QcInputError(`${path}: cannot be read (${e.code})`);
  if (e.code?.startsWith('Z_') || /incorrect header|unexpected end of file/i.test(e.message)) {
    return new QcInputError(`${name}: corrupt gzip data (${e.message})`);
  }
  return new QcInputError(`${name}: ${e.message}`);
}

async function scanInline(path: string, opts: QcOptions): Promise<{ counts: QcCounts; sample: SampleChunk[] }> {
  const counts = createCounts();
  const sample = new SampleCollector(SAMPLE_READS);
  const limit = opts.maxReads ?? Infinity;
  const size = (await stat(path)).size;
  let line = 1;
  for await (const { buf, consumed } of recordChunks(path, opts.chunkBytes)) {
    const { reads } = scanRecords(counts, buf, 0, buf.length, line, limit - counts.reads, sample);
    line += 4 * reads;
    opts.onProgress?.(size ? consumed / size : 1);
    if (counts.reads >= limit) break;
  }
  return { counts, sample: [sample] };
}

async function scanThreaded(
  path: string,
  threads: number,
  opts: QcOptions,
): Promise<{ counts: QcCounts; sample: SampleChunk[] }> {
  const size = (await stat(path)).size;
  const pool = ScanThreads.start(threads - 1);
  try {
    if (opts.awaitThreads) await pool.ready();
    let index = 0;
    for await (const { buf, consumed } of recordChunks(path, opts.chunkBytes)) {
      await pool.submit(index++, buf);
      opts.onProgress?.(size ? consumed / size : 1);
      if (pool.failed) break;
    }
    return await pool.finish();
  } finally {
    await pool.close();
  }
}

/** Runs quality control on a plain or gzip FASTQ file. */
export async function runQc(path: string, opts: QcOptions = {}): Promise<QcResult> {
  const name = opts.displayName ?? basename(path);
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new QcInputError(`${path}: not a file`);
    const compressed = await isGzipFile(path);
    const threads = Math.max(1, Math.floor(opts.threads ?? 1));
    const threaded =
      threads > 1 && opts.maxReads === undefined && info.size >= (opts.threadedMinBytes ?? THREADED_MIN_BYTES);
    const { counts, sample } = threaded ? await scanThreaded(path, threads, opts) : await scanInline(path, opts);
    // An empty file (or gzip member) is a FASTQ file with no reads, as FastQC reports it ("Total
    // Sequences 0"): a sample of a demultiplexed lane that no read matched has one. The result
    // says so with its `no_reads` flag (qc-flags.ts) rather than failing the sample's run.
    opts.onProgress?.(1);
    const truncated = opts.maxReads !== undefined && counts.reads >= opts.maxReads;
    const encoding = detectEncoding(counts.qualHist);
    if (encoding?.offset === 64 && opts.qualityEncoding !== 'phred64') {
      throw new QcInputError(encodingRefusal(name, encoding));
    }
    return buildResult(
      counts,
      sample,
      {
        file: name,
        ...(opts.sample !== undefined ? { sample: opts.sample } : {}),
        compressed,
        truncated,
      },
      encoding,
    );
  } catch (err) {
    throw inputError(err, path, name);
  }
}
