/**
 * Record-by-record reading of a FASTQ file for trimming, over the record-aligned buffers of
 * quality control's reader: each buffer is split into record offsets (no strings), checked with
 * the same rules and line-numbered errors as quality control.
 */
import { basename } from 'node:path';
import { FastqFormatError } from '../fastq-format-error';
import { recordChunks, type RecordChunk } from '../qc/record-chunks';

const LF = 10;
const CR = 13;
const AT = 64;
const PLUS = 43;

/** One record: offsets into `buf`. */
export interface FastqRecord {
  buf: Buffer;
  /** Header line without the "@" and the line end. */
  headerStart: number;
  headerEnd: number;
  seqStart: number;
  qualStart: number;
  length: number;
}

function lineEnd(buf: Buffer, from: number): number {
  const e = buf.indexOf(LF, from);
  return e < 0 ? buf.length : e;
}

function contentEnd(buf: Buffer, from: number, end: number): number {
  return end > from && buf[end - 1] === CR ? end - 1 : end;
}

/** Splits a record-aligned buffer into records; `firstLine` numbers errors. */
export function splitRecords(buf: Buffer, firstLine: number): FastqRecord[] {
  const out: FastqRecord[] = [];
  let p = 0;
  let line = firstLine;
  while (p < buf.length) {
    if (buf[p] === LF || buf[p] === CR) {
      if (buf.subarray(p).every((b) => b === LF || b === CR)) break;
    }
    if (buf[p] !== AT) throw new FastqFormatError(line, 'expected a header line starting with "@"');
    const h = lineEnd(buf, p);
    if (h >= buf.length) throw new FastqFormatError(line, 'truncated record (no sequence line)');
    const s = lineEnd(buf, h + 1);
    if (s + 1 >= buf.length) throw new FastqFormatError(line + 2, 'truncated record (no "+" line)');
    if (buf[s + 1] !== PLUS) throw new FastqFormatError(line + 2, 'expected a separator line starting with "+"');
    const sep = lineEnd(buf, s + 1);
    if (sep >= buf.length) throw new FastqFormatError(line + 3, 'truncated record (no quality line)');
    const q = lineEnd(buf, sep + 1);
    const length = contentEnd(buf, h + 1, s) - (h + 1);
    const qlen = contentEnd(buf, sep + 1, q) - (sep + 1);
    if (qlen !== length)
      throw new FastqFormatError(line + 3, `quality length ${qlen} differs from sequence length ${length}`);
    out.push({
      buf,
      headerStart: p + 1,
      headerEnd: contentEnd(buf, p, h),
      seqStart: h + 1,
      qualStart: sep + 1,
      length,
    });
    p = q + 1;
    line += 4;
  }
  return out;
}

/** Reads records in order; `next()` answers null only at the end of the file. */
export class FastqCursor {
  private readonly chunks: AsyncGenerator<RecordChunk>;
  private records: FastqRecord[] = [];
  private index = 0;
  private line = 1;
  private done = false;
  /** Bytes of the file read so far, for progress. */
  consumed = 0;

  constructor(readonly path: string) {
    this.chunks = recordChunks(path, 1 << 20);
  }

  /** The next record, or null at the end of the file. */
  async next(): Promise<FastqRecord | null> {
    while (this.index >= this.records.length) {
      if (this.done) return null;
      const { value, done } = await this.chunks.next();
      if (done) {
        this.done = true;
        return null;
      }
      this.consumed = value.consumed;
      try {
        this.records = splitRecords(value.buf, this.line);
      } catch (err) {
        throw new Error(`${basename(this.path)}: ${(err as Error).message}`, { cause: err });
      }
      this.line += 4 * this.records.length;
      this.index = 0;
    }
    return this.records[this.index++]!;
  }

  /** Stops reading (closes the file). */
  async close(): Promise<void> {
    await this.chunks.return(undefined);
  }
}
