/**
 * Buffered FASTQ output, gzip-compressed when the path ends in .gz. Records are copied as bytes
 * into a 1 MB buffer that is written with back-pressure, so memory stays flat on any input.
 */
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { FastqRecord } from './fastq-cursor';

const FLUSH_AT = 1 << 20;

export class FastqWriter {
  private readonly file: Writable;
  private readonly sink: Writable;
  private buf = Buffer.allocUnsafe(FLUSH_AT * 2);
  private used = 0;

  constructor(readonly path: string) {
    this.file = createWriteStream(path);
    if (path.endsWith('.gz')) {
      const gz = createGzip({ level: 4 });
      gz.pipe(this.file);
      this.sink = gz;
    } else {
      this.sink = this.file;
    }
  }

  /** Appends the record cut to `length` bases; resolves when there is room for more. */
  async write(r: FastqRecord, length: number): Promise<void> {
    const header = r.headerEnd - r.headerStart;
    const need = header + 2 * length + 6;
    if (this.used + need > this.buf.length)
      this.buf = Buffer.concat([this.buf.subarray(0, this.used), Buffer.allocUnsafe(need + FLUSH_AT)]);
    const b = this.buf;
    let o = this.used;
    b[o++] = 64;
    o += r.buf.copy(b, o, r.headerStart, r.headerEnd);
    b[o++] = 10;
    o += r.buf.copy(b, o, r.seqStart, r.seqStart + length);
    b[o++] = 10;
    b[o++] = 43;
    b[o++] = 10;
    o += r.buf.copy(b, o, r.qualStart, r.qualStart + length);
    b[o++] = 10;
    this.used = o;
    if (this.used >= FLUSH_AT) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    const out = Buffer.from(this.buf.subarray(0, this.used));
    this.used = 0;
    if (!this.sink.write(out)) await new Promise<void>((resolve) => this.sink.once('drain', () => resolve()));
  }

  /** Writes what is left and waits until the file is complete on disk. */
  async close(): Promise<void> {
    await this.flush();
    this.sink.end();
    await finished(this.file);
  }
}
