/**
 * The copy operations the parsing thread sends the output thread: every output byte either
 * comes from an input chunk (a span of a record) or is one of a few literals. An operation is
 * four int32s, [file, source, a, b]:
 * - source >= 0: copy chunk `source` bytes [a, b) to the file;
 * - RESERVE: make room for `a` bytes (a record's worst case, so it never spans two blocks);
 * - BYTE: the byte `a`;
 * - PLUS_LINE: "\n+\n" (between a trimmed sequence and its quality).
 */
import type { FastqWriter } from './fastq-writer';
import { nativeModule, type NativeModule } from './native-module';

export const OP_INTS = 4;
export const RESERVE = -1;
export const BYTE = -2;
export const PLUS_LINE = -3;

const NL = 10;
const PLUS = 43;

/**
 * A native call that ran fewer copies than this was not worth its cost (the call, and handing
 * every file's block over): on inline lanes a record's literals (UMIs, trimmed ends) follow
 * every few copies, and calling C per run made `laneway demux` 20 times slower there.
 */
const SHORT_RUN = 16 * OP_INTS;
/** After a short run, this many operations are done here before C is tried again. */
const BACK_OFF = 512 * OP_INTS;

/** Executes `n` int32s of operations against the files' writers. */
export function executeOps(ops: Int32Array, n: number, writers: FastqWriter[], chunks: Buffer[]): void {
  const native = nativeModule();
  const scratch = native ? newScratch(writers.length) : null;
  let nextTry = 0;
  for (let i = 0; i < n; i = runOne(ops, i, writers, chunks)) {
    // The long runs of plain copies in C (native-module.ts), as header lanes have them; the
    // rest one by one here.
    if (!native || i < nextTry || !copiesAhead(ops, i, n)) continue;
    const stopped = nativeCopies(native, scratch!, ops, i, n, writers, chunks);
    if (stopped - i < SHORT_RUN) nextTry = stopped + BACK_OFF;
    if ((i = stopped) >= n) break;
  }
}

interface Scratch {
  lens: Int32Array;
  blocks: Uint8Array[];
}

const newScratch = (files: number): Scratch => ({
  lens: new Int32Array(files),
  blocks: new Array<Uint8Array>(files),
});

/** Whether the next few operations are all plain copies (else a native call would stop at once). */
function copiesAhead(ops: Int32Array, i: number, n: number): boolean {
  const end = Math.min(n, i + SHORT_RUN);
  for (let k = i + 1; k < end; k += OP_INTS) if (ops[k]! < 0) return false;
  return true;
}

/** Runs operations from `i` natively while they are plain copies that fit their blocks; where it stopped. */
function nativeCopies(
  native: NativeModule,
  { lens, blocks }: Scratch,
  ops: Int32Array,
  i: number,
  n: number,
  writers: FastqWriter[],
  chunks: Buffer[],
): number {
  for (let k = 0; k < writers.length; k++) {
    const w = writers[k]!;
    blocks[k] = w.buf;
    lens[k] = w.len;
  }
  const stopped = native.copy(ops, i, n, blocks, lens, chunks);
  for (let k = 0; k < writers.length; k++) writers[k]!.len = lens[k]!;
  return stopped;
}

/** Runs the operation at `i`; the next one's index. */
function runOne(ops: Int32Array, i: number, writers: FastqWriter[], chunks: Buffer[]): number {
  const w = writers[ops[i]!]!;
  const source = ops[i + 1]!;
  const a = ops[i + 2]!;
  if (source >= 0) {
    const len = ops[i + 3]! - a;
    if (w.len + len > w.buf.length) w.reserve(len);
    const src = chunks[source]!;
    const o = w.buf;
    const at = w.len;
    // Short spans (read names, UMIs) in a loop; longer ones through a plain view, which costs
    // less than Buffer#copy's checks.
    if (len > 64) o.set(new Uint8Array(src.buffer, src.byteOffset + a, len), at);
    else for (let k = 0; k < len; k++) o[at + k] = src[a + k]!;
    w.len = at + len;
  } else if (source === RESERVE) {
    w.reserve(a);
  } else if (source === BYTE) {
    w.reserve(1);
    w.buf[w.len++] = a;
  } else {
    w.reserve(3);
    const o = w.buf;
    o[w.len] = NL;
    o[w.len + 1] = PLUS;
    o[w.len + 2] = NL;
    w.len += 3;
  }
  return i + OP_INTS;
}
