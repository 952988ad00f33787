/**
 * The header-index fast path's hot loop in C (native/demux-scan.c), when it is built: for a
 * single-end lane with its indexes in the read headers, it takes the records of the current
 * chunk that go to a sample (parsing, index lookup, counts, the copy operation), and leaves
 * every other record (undetermined, hopping, anything the reader treats otherwise, a chunk's
 * end) to the JavaScript reader and handler, which then go on exactly as without it. The bytes
 * and counts are the same (demux-native.test.ts runs lanes both ways).
 *
 * Built at `npm ci` (native/build.mjs); missing, older than its source, or with
 * LANEWAY_DEMUX_NATIVE=0, the JavaScript path runs.
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastqReader } from './fastq-reader';
import { plainIndex } from './index-handlers';
import { Where, type Routing } from './record-handlers';

interface NativeModule {
  context(
    index0: Int32Array,
    span0: number,
    index1: Int32Array | null,
    span1: number,
    single: Int32Array | null,
    pairs: Int32Array | null,
    n1: number,
    files: Int32Array,
    counts: Float64Array,
    one: Float64Array,
    two: Float64Array,
  ): unknown;
  scan(context: unknown, buf: Uint8Array, ops: Int32Array, state: Int32Array, chunk: number): void;
}

const MODULE = join('native', 'build', 'Release', 'laneway_demux.node');
const SOURCE = join('native', 'demux-scan.c');

let loaded: NativeModule | null | undefined;

/** The checkout's native module (searched upwards from here: sources, the CLI's bundle, out/main), or null. */
function load(): NativeModule | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 8; up++, dir = dirname(dir)) {
    const path = join(dir, MODULE);
    if (!existsSync(path)) continue;
    try {
      // A build older than its source would not be the code under test: the JavaScript path runs.
      const source = join(dir, SOURCE);
      if (existsSync(source) && statSync(source).mtimeMs > statSync(path).mtimeMs) return null;
      loaded = createRequire(import.meta.url)(path) as NativeModule;
    } catch {
      loaded = null;
    }
    break;
  }
  return loaded;
}

/** True when the native scan is built and allowed (LANEWAY_DEMUX_NATIVE is not 0). */
export function nativeScanAvailable(): boolean {
  return process.env.LANEWAY_DEMUX_NATIVE !== '0' && load() !== null;
}

let nativeReads = 0;

/** Reads taken by the native scan in this process (tests check that it ran). */
export function nativeReadsTaken(): number {
  return nativeReads;
}

export interface NativeScanner {
  /** Takes up to `limit` records of r1's current chunk; returns how many (0: the next is JavaScript's). */
  scan(r1: FastqReader, limit: number): number;
}

/** The native scan for the routing, or null when it is not built or the lane does not fit it. */
export function nativeHeaderScanner(route: Routing, paired: boolean): NativeScanner | null {
  const { segments, where } = route;
  if (paired || route.barcodeRead !== 0 || where[0] !== Where.HeaderI7 || segments.length > 2) return null;
  if (segments.length === 2 && where[1] !== Where.HeaderI5) return null;
  if (!nativeScanAvailable()) return null;
  const index0 = plainIndex(segments[0]!);
  const index1 = segments.length === 2 ? plainIndex(segments[1]!) : null;
  const table0 = index0?.table ?? null;
  const table1 = index1?.table ?? null;
  if (!table0 || (segments.length === 2 && !table1)) return null;
  const native = loaded!;
  const sink = route.sink;
  const context = native.context(
    table0,
    segments[0]!.groups[0]!.span,
    table1,
    segments.length === 2 ? segments[1]!.groups[0]!.span : 0,
    route.single,
    route.pairs,
    route.n1,
    Int32Array.from(route.read1),
    route.counts,
    route.oneMismatch,
    route.twoMismatches,
  );
  const state = new Int32Array(6);
  return {
    scan(r1, limit) {
      state[0] = r1.position;
      state[1] = r1.bufferEnd;
      state[2] = limit;
      state[3] = sink.batchLength;
      native.scan(context, r1.buf, sink.batch, state, r1.chunkId);
      const taken = state[5]!;
      if (taken > 0) {
        r1.skipTo(state[0]!, taken);
        sink.appended(state[3]!, r1.chunkId);
        nativeReads += taken;
      }
      return taken;
    },
  };
}
