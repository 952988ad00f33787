/**
 * Reads a .gz upload's bytes through gzip as they are sent, so that a file cut short (a copy
 * from the instrument's drive interrupted, a file taken while still being written) or damaged
 * fails before its last chunk leaves, with a message saying what is wrong, and never becomes a
 * data record. minimap2 and bcftools read such a file up to the break and exit 0, so a
 * pipeline would complete on part of the reads (docs/known-limits.md); the service sees only
 * the file's first bytes.
 *
 * The inflating runs in zlib's thread pool, off the queue's event loop; the output is
 * dropped. gzip members one after another (Nanopore batches joined, BGZF) are one stream to
 * zlib. Zero bytes after the last member pass, as gzip -t passes them; other bytes there are
 * refused with their own message (gzip -t only warns: tools drop them, and with them any reads
 * of a damaged member behind).
 */
import { createGunzip, type Gunzip } from 'node:zlib';

/** Output handed back by zlib at a time: big enough that a chunk of 8 MiB takes few hops to the pool. */
const OUTPUT_CHUNK = 1 << 20;

export class GzipCheck {
  private readonly gunzip: Gunzip;
  private fed = 0;
  /** Whether the file starts as gzip does (0x1f 0x8b). */
  private magic = false;
  private error: (Error & { code?: string }) | null = null;
  private readonly ended: Promise<void>;
  /** Settles only when zlib fails (then the stream is destroyed and holds no buffer). */
  private readonly failed: Promise<void>;

  /**
   * `sources` and `sizes`: the files joined into the upload, in order, to name the one where a
   * problem shows (a Nanopore barcode's batches, a sample's lanes).
   */
  constructor(
    private readonly filename: string,
    private readonly sources: readonly string[] = [],
    private readonly sizes: readonly number[] = [],
  ) {
    this.gunzip = createGunzip({ chunkSize: OUTPUT_CHUNK });
    // The reads themselves are not needed: let them flow away.
    this.gunzip.resume();
    this.failed = new Promise<void>((resolve) => {
      this.gunzip.once('error', (err) => {
        this.error ??= err;
        resolve();
      });
    });
    this.ended = new Promise<void>((resolve) => {
      this.gunzip.once('end', resolve);
      this.gunzip.once('close', resolve);
      void this.failed.then(resolve);
    });
  }

  /**
   * Passes the next bytes of the file through; resolves once zlib has read them, so the caller
   * may reuse the buffer. After a problem it resolves at once (see `problem`).
   */
  feed(bytes: Buffer): Promise<void> {
    if (this.error || bytes.length === 0) return Promise.resolve();
    if (this.fed === 0) this.magic = bytes[0] === 0x1f && bytes[1] === 0x8b;
    this.fed += bytes.length;
    const consumed = new Promise<void>((resolve) => {
      // The callback comes once zlib has consumed the buffer; after an error it may never come.
      this.gunzip.write(bytes, () => resolve());
    });
    return Promise.race([consumed, this.failed]);
  }

  /** What is wrong so far (a damaged or non-gzip file shows before its end), or null. */
  get problem(): string | null {
    return this.error ? this.describe(this.error) : null;
  }

  /** Ends the stream: null when the bytes were whole gzip, else what is wrong with them. */
  async finish(): Promise<string | null> {
    if (!this.error) this.gunzip.end();
    await this.ended;
    return this.problem;
  }

  /** Frees zlib's state (a job aborted or failed midway). */
  destroy(): void {
    this.gunzip.destroy();
  }

  /** The upload's name, and the joined file where the problem shows when it was joined. */
  private where(): string {
    if (this.sources.length <= 1) return this.sources[0] ?? this.filename;
    // Input zlib had taken when it failed (bytesWritten counts consumed bytes), else all fed.
    const at = Math.max(0, Math.min(this.fed, this.gunzip.bytesWritten || this.fed) - 1);
    let end = 0;
    let part = this.sources[this.sources.length - 1]!;
    for (let i = 0; i < this.sources.length; i++) {
      end += this.sizes[i] ?? 0;
      if (at < end) {
        part = this.sources[i]!;
        break;
      }
    }
    return `${this.filename} (joined from ${this.sources.length} files; the problem shows in ${part})`;
  }

  private describe(err: Error & { code?: string }): string {
    const name = this.where();
    const again = 'Copy it again from the instrument (or its original folder) and upload that copy.';
    if (err.code === 'Z_BUF_ERROR')
      return `${name} is cut short: its gzip data stops in the middle, at byte ${this.fed.toLocaleString('en-US')}, as when a copy is interrupted or a file is taken while still being written. ${again}`;
    if (!this.magic)
      return `${name} is not gzip data, although its name ends in .gz: compress it (gzip or pigz), or rename it without .gz if it is plain FASTQ.`;
    // zlib reads on after a whole member (checksum and length checked) unless the next byte is 0
    // (padding, which gzip also accepts): a failing header there is bytes that are not gzip.
    if (/incorrect header check/.test(err.message))
      return `${name} has bytes after its gzip data that are not gzip (gzip -t: "trailing garbage ignored"; tools read the reads before them and drop the rest): a part of a joined file may be damaged, or the file was written over. ${again}`;
    if (/incorrect data check|incorrect length check/.test(err.message))
      return `${name} is damaged: a gzip member's checksum does not match its contents (${err.message}). ${again}`;
    return `${name} is damaged: its gzip data cannot be read (zlib: ${err.message}). ${again}`;
  }
}
