/**
 * The raw counters of quality control: plain numbers and typed arrays indexed by cycle, so that
 * the scanner's hot loop does only array increments, partial counts from several threads merge
 * by addition (the result does not depend on how the file was split), and the whole state
 * crosses a worker boundary by structured clone.
 */
import { KNOWN_ADAPTERS } from './known-adapters';

/** Quality values are indexed by their raw byte (33..126), so a cycle holds 128 slots. */
export const QUAL_SLOTS = 128;
/** Bases are indexed by `byte & 7`: A=1, C=3, T=4, N=6, G=7 (fastp's own trick). */
export const BASE_SLOTS = 8;

export interface QcCounts {
  reads: number;
  bases: number;
  q20: number;
  q30: number;
  gc: number;
  minLen: number;
  maxLen: number;
  /** Cycles the per-cycle arrays have room for. */
  cap: number;
  /** Reads by length, index = length (cap + 1 slots). */
  lengthHist: Float64Array;
  /** Bases by cycle and `byte & 7`. */
  baseCounts: Float64Array;
  /** Quality bytes by cycle and byte value. */
  qualHist: Float64Array;
  /** Reads by their mean quality byte, truncated as FastQC does. */
  readQualHist: Float64Array;
  /** Reads by GC percent (0..100). */
  gcHist: Float64Array;
  /** Reads by GC percent smoothed as FastQC's GC model does (gc-model.ts), for its GC flag. */
  gcModelHist: Float64Array;
  /** Reads whose first occurrence of adapter a starts at cycle c: index a * cap + c. */
  adapterStarts: Float64Array;
}

/** Fresh, empty counters with room for `cap` cycles. */
export function createCounts(cap = 256): QcCounts {
  return {
    reads: 0,
    bases: 0,
    q20: 0,
    q30: 0,
    gc: 0,
    minLen: Number.MAX_SAFE_INTEGER,
    maxLen: 0,
    cap,
    lengthHist: new Float64Array(cap + 1),
    baseCounts: new Float64Array(cap * BASE_SLOTS),
    qualHist: new Float64Array(cap * QUAL_SLOTS),
    readQualHist: new Float64Array(QUAL_SLOTS),
    gcHist: new Float64Array(101),
    gcModelHist: new Float64Array(101),
    adapterStarts: new Float64Array(KNOWN_ADAPTERS.length * cap),
  };
}

/** Grows the per-cycle arrays (doubling) until `length` cycles fit. */
export function growCounts(c: QcCounts, length: number): void {
  let cap = c.cap;
  while (cap < length) cap *= 2;
  if (cap === c.cap) return;
  const lengthHist = new Float64Array(cap + 1);
  lengthHist.set(c.lengthHist);
  const baseCounts = new Float64Array(cap * BASE_SLOTS);
  baseCounts.set(c.baseCounts);
  const qualHist = new Float64Array(cap * QUAL_SLOTS);
  qualHist.set(c.qualHist);
  const adapterStarts = new Float64Array(KNOWN_ADAPTERS.length * cap);
  for (let a = 0; a < KNOWN_ADAPTERS.length; a++) {
    adapterStarts.set(c.adapterStarts.subarray(a * c.cap, (a + 1) * c.cap), a * cap);
  }
  Object.assign(c, { cap, lengthHist, baseCounts, qualHist, adapterStarts });
}

function addInto(target: Float64Array, source: Float64Array): void {
  for (let i = 0; i < source.length; i++) target[i]! += source[i]!;
}

/** Adds `from` into `into` (both may have different capacities). */
export function mergeCounts(into: QcCounts, from: QcCounts): void {
  if (from.reads === 0) return;
  growCounts(into, from.cap);
  into.reads += from.reads;
  into.bases += from.bases;
  into.q20 += from.q20;
  into.q30 += from.q30;
  into.gc += from.gc;
  into.minLen = Math.min(into.minLen, from.minLen);
  into.maxLen = Math.max(into.maxLen, from.maxLen);
  addInto(into.lengthHist, from.lengthHist);
  addInto(into.baseCounts, from.baseCounts);
  addInto(into.qualHist, from.qualHist);
  addInto(into.readQualHist, from.readQualHist);
  addInto(into.gcHist, from.gcHist);
  addInto(into.gcModelHist, from.gcModelHist);
  for (let a = 0; a < KNOWN_ADAPTERS.length; a++) {
    const src = from.adapterStarts.subarray(a * from.cap, (a + 1) * from.cap);
    addInto(into.adapterStarts.subarray(a * into.cap, a * into.cap + from.cap), src);
  }
}
