/**
 * Reading a ZIP archive (the container of an .xlsx) with bounds: the central directory is
 * parsed without trusting it (entry count, offsets inside the file), and every entry is inflated
 * by the caller's own inflater with a cap on its output, so a "zip bomb" stops at the cap.
 * Inflating is the host's: node:zlib in the service, DecompressionStream in the renderer.
 */
import { formatCount, TABLE_LIMITS, TableReadError, type TableLimits } from './table-limits';

/** Inflates raw DEFLATE data; must refuse (throw) once the output would exceed `maxBytes`. */
export type Inflate = (data: Uint8Array, maxBytes: number) => Uint8Array | Promise<Uint8Array>;

/** Thrown by an Inflate when the output would exceed its cap. */
export class InflateCapError extends Error {
  constructor() {
    super('inflated data over the cap');
    this.name = 'InflateCapError';
  }
}

interface Entry {
  method: number;
  compressedSize: number;
  declaredSize: number;
  localOffset: number;
}

const u16 = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8);
const u32 = (b: Uint8Array, o: number) => (u16(b, o) | (u16(b, o + 2) << 16)) >>> 0;

const damaged = (why: string) => new TableReadError(`The workbook is damaged (${why})`);

export class ZipArchive {
  private readonly entries = new Map<string, Entry>();
  private inflatedTotal = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly inflate: Inflate,
    private readonly limits: TableLimits = TABLE_LIMITS,
  ) {
    let eocd = -1;
    for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65_557); i--) {
      if (u32(bytes, i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new TableReadError('This is not an .xlsx workbook (no ZIP directory found)');
    const count = u16(bytes, eocd + 10);
    if (count > limits.maxZipEntries) {
      throw new TableReadError(
        `The workbook has ${formatCount(count)} parts, over the limit of ${formatCount(limits.maxZipEntries)}`,
        0,
        '',
        'maxZipEntries',
      );
    }
    const decoder = new (
      globalThis as unknown as { TextDecoder: new () => { decode(b: Uint8Array): string } }
    ).TextDecoder();
    let p = u32(bytes, eocd + 16);
    for (let n = 0; n < count; n++) {
      if (p + 46 > bytes.length || u32(bytes, p) !== 0x02014b50) throw damaged('bad ZIP directory');
      const nameLen = u16(bytes, p + 28);
      const entry: Entry = {
        method: u16(bytes, p + 10),
        compressedSize: u32(bytes, p + 20),
        declaredSize: u32(bytes, p + 24),
        localOffset: u32(bytes, p + 42),
      };
      const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
      this.entries.set(name.replace(/\\/g, '/').replace(/^\//, ''), entry);
      p += 46 + nameLen + u16(bytes, p + 30) + u16(bytes, p + 32);
    }
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The raw (still compressed) bytes of an entry, with its method. */
  raw(name: string): { method: number; data: Uint8Array } | null {
    const e = this.entries.get(name);
    if (!e) return null;
    const local = e.localOffset;
    if (local + 30 > this.bytes.length || u32(this.bytes, local) !== 0x04034b50) throw damaged(`bad entry ${name}`);
    const start = local + 30 + u16(this.bytes, local + 26) + u16(this.bytes, local + 28);
    if (start + e.compressedSize > this.bytes.length) throw damaged(`entry ${name} runs past the end`);
    return { method: e.method, data: this.bytes.subarray(start, start + e.compressedSize) };
  }

  /** An entry's bytes, inflated within the part and total bounds; null when absent. */
  async read(name: string): Promise<Uint8Array | null> {
    const e = this.entries.get(name);
    const raw = this.raw(name);
    if (!e || !raw) return null;
    const cap = Math.min(this.limits.maxPartBytes, this.limits.maxInflatedBytes - this.inflatedTotal);
    const tooBig = () =>
      new TableReadError(
        cap < this.limits.maxPartBytes
          ? `The workbook's parts inflate to more than ${formatCount(this.limits.maxInflatedBytes)} bytes (the limit)`
          : `The workbook part ${name} inflates to more than ${formatCount(this.limits.maxPartBytes)} bytes (the limit)`,
        0,
        '',
        cap < this.limits.maxPartBytes ? 'maxInflatedBytes' : 'maxPartBytes',
      );
    if (e.declaredSize > cap) throw tooBig();
    let out: Uint8Array;
    if (raw.method === 0) out = raw.data;
    else if (raw.method === 8) {
      try {
        out = await this.inflate(raw.data, cap);
      } catch (err) {
        if (err instanceof InflateCapError) throw tooBig();
        throw damaged(`entry ${name} cannot be inflated`);
      }
    } else throw new TableReadError(`The workbook uses an unsupported compression (method ${raw.method})`);
    if (out.length > cap) throw tooBig();
    this.inflatedTotal += out.length;
    return out;
  }
}
