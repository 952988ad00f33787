/**
 * The benchmark harness: each `*.bench.ts` module exports `benchmark`, which measures our code
 * and the reference tool the issue names in the same run. The harness prints both figures and
 * the ratio, and writes `.bench/results.json` for the README.
 */
export interface BenchFigure {
  /** What was measured, for example "QC plain FASTQ". */
  name: string;
  unit: string;
  reference: { tool: string; value: number };
  ours: number;
  /** True for throughput (reads/s), false for costs (ms, MB). */
  higherIsBetter: boolean;
  /** The goal as a ratio ours/reference (or reference/ours for costs). */
  goal?: number;
  notes?: string;
}

export interface BenchContext {
  /** A scratch folder for generated inputs, kept between runs to save regeneration. */
  workDir: string;
  /** True with --quick: smaller inputs, for a smoke run. */
  quick: boolean;
  log(message: string): void;
}

export interface Benchmark {
  name: string;
  run(ctx: BenchContext): Promise<BenchFigure[]>;
}

/** ours relative to the reference, oriented so that bigger is better. */
export function ratio(f: BenchFigure): number {
  return f.higherIsBetter ? f.ours / f.reference.value : f.reference.value / f.ours;
}

/** Times an async function once, in seconds. */
export async function seconds(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}
