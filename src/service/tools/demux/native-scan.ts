/**
 * The header-index fast path's hot loop in C (native/demux-scan.c), when it is built: for a
 * single-end lane with its indexes in the read headers, it takes the records of the current
 * chunk that go to a sample (parsing, index lookup, counts, the copy operation), and leaves
 * every other record (undetermined, hopping, anything the reader treats otherwise, a chunk's
 * end) to the JavaScript reader and handler, which then go on exactly as without it. The bytes
 * and counts are the same (demux-native.test.ts runs lanes both ways).
 *
 * Built at `npm ci` (native-module.ts); without it, the JavaScript path runs.
 */
import type { FastqReader } from './fastq-reader';
import { plainIndex } from './index-handlers';
import { nativeModule } from './native-module';
import { Where, type Routing } from './record-handlers';

/** True when the native scan is built and allowed (LANEWAY_DEMUX_NATIVE is not 0). */
export function nativeScanAvailable(): boolean {
  return nativeModule() !== null;
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
  const native = nativeModule();
  if (!native) return null;
  const index0 = plainIndex(segments[0]!);
  const index1 = segments.length === 2 ? plainIndex(segments[1]!) : null;
  const table0 = index0?.table ?? null;
  const table1 = index1?.table ?? null;
  if (!table0 || (segments.length === 2 && !table1)) return null;
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
