/**
 * The first reads of a lane's files (read 1, read 2, index reads), as strings, for choosing
 * where the barcodes are before demultiplexing: a few thousand reads are enough to tell the
 * placements apart, and reading them costs milliseconds whatever the lane's size.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { LaneSample, SampledRead } from '../../../shared/demux/placement-plan';
import { isGzipFile } from './fastq-reader';

export type { LaneSample, SampledRead } from '../../../shared/demux/placement-plan';

export interface LaneFiles {
  read1: string;
  read2?: string;
  index1?: string;
  index2?: string;
}

/** Reads sampled by default: enough for a share to 1-2%, quick on any lane. */
export const SAMPLE_READS = 4000;

/** readline's line ends: \n, \r\n, or a lone \r. */
const LINE_END = /\r?\n|\r(?!\n)/;
const BLOCK_BYTES = 1024 * 1024;

/**
 * The first reads of a plain file, read in blocks: the lines readline gives (cut only after a
 * \n, so that no line end nor UTF-8 character is split between blocks), at a tenth of the cost
 * of a stream and a line reader, which start-up pays on every lane.
 */
function firstPlainReads(path: string, limit: number): SampledRead[] {
  const fd = openSync(path, 'r');
  const reads: SampledRead[] = [];
  let header = '';
  let n = 0;
  const take = (line: string) => {
    const k = n++ % 4;
    if (k === 0) header = line;
    else if (k === 1) {
      reads.push({ header, seq: line.trim().toUpperCase() });
      return reads.length < limit;
    }
    return true;
  };
  try {
    let pending = Buffer.alloc(0);
    for (;;) {
      const block = Buffer.allocUnsafe(BLOCK_BYTES);
      const got = readSync(fd, block, 0, BLOCK_BYTES, null);
      const data = pending.length ? Buffer.concat([pending, block.subarray(0, got)]) : block.subarray(0, got);
      if (got === 0) {
        // At the end: a last line without its line end is still a line, an empty one is not.
        const lines = data.toString('utf8').split(LINE_END);
        const last = lines.pop()!;
        for (const line of lines) if (!take(line)) return reads;
        if (last.length > 0) take(last);
        return reads;
      }
      const cut = data.lastIndexOf(10) + 1;
      const cr = data.indexOf(13);
      if (cr < 0 || cr >= cut) {
        // Only \n line ends (the usual case): the block decoded once and its lines found in the
        // string (UTF-8 never has a \n inside a character, so each line decodes as it does in
        // the whole block); a call into Buffer per line cost more than the lines themselves.
        const text = data.toString('utf8', 0, cut);
        for (let from = 0; from < text.length;) {
          const end = text.indexOf('\n', from);
          const k = n % 4;
          if (k > 1) n++;
          else if (!take(text.slice(from, end))) return reads;
          from = end + 1;
        }
      } else {
        const lines = data.toString('utf8', 0, cut).split(LINE_END);
        lines.pop(); // the empty piece after the last \n
        for (const l of lines) if (!take(l)) return reads;
      }
      pending = data.subarray(cut);
    }
  } finally {
    closeSync(fd);
  }
}

/** The first `limit` reads of a FASTQ file (plain or gzip). */
export async function firstReads(path: string, limit = SAMPLE_READS): Promise<SampledRead[]> {
  if (!isGzipFile(path)) return firstPlainReads(path, limit);
  const file = createReadStream(path);
  const input = file.pipe(createGunzip());
  // A gzip stream cut short when enough reads were read is no error here.
  input.on('error', () => {});
  const lines = createInterface({ input, crlfDelay: Infinity });
  const reads: SampledRead[] = [];
  let header = '';
  let n = 0;
  try {
    for await (const line of lines) {
      const k = n++ % 4;
      if (k === 0) header = line;
      else if (k === 1) {
        reads.push({ header, seq: line.trim().toUpperCase() });
        if (reads.length >= limit) break;
      }
    }
  } finally {
    lines.close();
    file.destroy();
  }
  return reads;
}

/** The first reads of every file of a lane. */
export async function sampleLane(files: LaneFiles, limit = SAMPLE_READS): Promise<LaneSample> {
  const opt = (p?: string) => (p ? firstReads(p, limit) : Promise.resolve(null));
  const [read1, read2, index1, index2] = await Promise.all([
    firstReads(files.read1, limit),
    opt(files.read2),
    opt(files.index1),
    opt(files.index2),
  ]);
  return { read1, read2, index1, index2 };
}
