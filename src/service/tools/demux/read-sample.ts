/**
 * The first reads of a lane's files (read 1, read 2, index reads), as strings, for choosing
 * where the barcodes are before demultiplexing: a few thousand reads are enough to tell the
 * placements apart, and reading them costs milliseconds whatever the lane's size.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { isGzipFile } from './fastq-reader';

/** One read: its header line and its bases. */
export interface SampledRead {
  header: string;
  seq: string;
}

export interface LaneFiles {
  read1: string;
  read2?: string;
  index1?: string;
  index2?: string;
}

export interface LaneSample {
  read1: SampledRead[];
  read2: SampledRead[] | null;
  index1: SampledRead[] | null;
  index2: SampledRead[] | null;
}

/** Reads sampled by default: enough for a share to 1-2%, quick on any lane. */
export const SAMPLE_READS = 4000;

/** The first `limit` reads of a FASTQ file (plain or gzip). */
export async function firstReads(path: string, limit = SAMPLE_READS): Promise<SampledRead[]> {
  const file = createReadStream(path);
  const input = isGzipFile(path) ? file.pipe(createGunzip()) : file;
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
