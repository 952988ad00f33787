/**
 * The index fast paths' hot loop in C (native/demux-scan.c), when it is built: for a single-end
 * lane with its indexes in the read headers or in I1/I2 files, it takes the records of the
 * current chunks that go to a sample (parsing, index lookup, counts, the copy operation), and of a
 * single index's undetermined reads those after the diagnosis sample; it leaves every other record
 * (the first undetermined reads, hopping, anything the reader treats otherwise, a chunk's end) to
 * the JavaScript reader and handler, which then go on exactly as without it. The bytes
 * and counts are the same (demux-native.test.ts runs lanes both ways).
 *
 * Built at `npm ci` (native-module.ts); without it, the JavaScript path runs.
 */
import type { FastqReader } from './fastq-reader';
import { plainIndex } from './index-handlers';
import { nativeModule } from './native-module';
import { DIAGNOSIS_SAMPLE, Where, type Routing } from './record-handlers';

/** True when the native scan is built and allowed (LANEWAY_DEMUX_NATIVE is not 0). */
export function nativeScanAvailable(): boolean {
  return nativeModule() !== null;
}

export interface NativeScanner {
  /**
   * Takes up to `limit` records (of r1's current chunk, and of the index reads' in step);
   * returns how many (0: the next record is JavaScript's).
   */
  scan(limit: number): number;
  /** True when the scan must not take a record on which the files' read names are compared. */
  readonly inStep: boolean;
}

/**
 * The native scan for the routing (single-end lanes, indexes in the read headers or in I1/I2
 * files), or null when it is not built or the lane does not fit it.
 */
export function nativeScanner(
  route: Routing,
  r1: FastqReader,
  r2: FastqReader | null,
  i1: FastqReader | null,
  i2: FastqReader | null,
  counters?: { nativeReads: number },
): NativeScanner | null {
  const { segments, where } = route;
  if (r2 || route.barcodeRead !== 0 || segments.length > 2) return null;
  const header = where[0] === Where.HeaderI7 && (segments.length === 1 || where[1] === Where.HeaderI5);
  const reads = where[0] === Where.Index1 && !!i1 && (segments.length === 1 || (where[1] === Where.Index2 && !!i2));
  if (!header && !reads) return null;
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
  if (header) {
    const state = new Int32Array(8);
    // A single index's undetermined reads are the scan's too once the diagnosis sample is full
    // (JavaScript keeps the first ones as strings): a lane's 1% of them each cost a return to
    // JavaScript and a record handled there. Their codes come back for the unknown tally.
    const unknownCodes = new Float64Array(1024);
    return {
      inStep: false,
      scan(limit) {
        state[0] = r1.position;
        state[1] = r1.bufferEnd;
        state[2] = limit;
        state[3] = sink.batchLength;
        state[6] = segments.length === 1 && route.samples.length >= DIAGNOSIS_SAMPLE ? route.undetermined1 : -1;
        state[7] = 0;
        native.scan(context, r1.buf, sink.batch, state, r1.chunkId, unknownCodes);
        const taken = state[5]!;
        if (taken > 0) {
          r1.skipTo(state[0]!, taken);
          sink.appended(state[3]!, r1.chunkId);
          if (counters) counters.nativeReads += taken;
        }
        const undetermined = state[7]!;
        if (undetermined > 0) {
          route.undetermined += undetermined;
          for (let i = 0; i < undetermined; i++) {
            const code = unknownCodes[i]!;
            if (code >= 0) route.unknown.add(code);
          }
        }
        return taken;
      },
    };
  }
  const two = segments.length === 2 ? i2 : null;
  const state = new Int32Array(10);
  return {
    inStep: true,
    scan(limit) {
      state[0] = r1.position;
      state[1] = r1.bufferEnd;
      state[2] = i1!.position;
      state[3] = i1!.bufferEnd;
      state[4] = two ? two.position : 0;
      state[5] = two ? two.bufferEnd : 0;
      state[6] = limit;
      state[7] = sink.batchLength;
      native.scanIndexReads(context, r1.buf, i1!.buf, two ? two.buf : null, sink.batch, state, r1.chunkId);
      const taken = state[9]!;
      if (taken > 0) {
        r1.skipTo(state[0]!, taken);
        i1!.skipTo(state[2]!, taken);
        two?.skipTo(state[4]!, taken);
        sink.appended(state[7]!, r1.chunkId);
        if (counters) counters.nativeReads += taken;
      }
      return taken;
    },
  };
}
