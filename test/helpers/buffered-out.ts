/**
 * A generated file written in large pieces (gzip per piece when asked: a multi-member gzip, as
 * pigz and BGZF write it), so that generators of millions of reads neither hold a whole file
 * in memory nor write line by line.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export class BufferedOut {
  private parts: string[] = [];
  private size = 0;
  private readonly fd: number;
  constructor(
    path: string,
    private readonly gz: boolean,
  ) {
    this.fd = openSync(path, 'w');
  }
  add(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size > 4_000_000) this.flush();
  }
  flush(): void {
    const buf = Buffer.from(this.parts.join(''), 'latin1');
    this.parts = [];
    this.size = 0;
    if (buf.length) writeSync(this.fd, this.gz ? gzipSync(buf, { level: 1 }) : buf);
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
