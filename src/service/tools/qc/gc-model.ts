/**
 * FastQC's per-sequence GC model (its GCModel class): a read of length L with g G/C bases does
 * not land in one percent bin but is spread over the bins its count could round into, each
 * bin weighted by how many counts claim it. This smooths the jagged histogram short reads give
 * (a 100 bp read can only be 0, 1, 2... percent), and FastQC's GC flag is computed on it, so
 * ours must be too to agree with FastQC. Models are cached per read length; reads longer than
 * MAX_MODEL_LENGTH go to their rounded percent bin instead (FastQC truncates long reads first).
 */

/** Longer reads are binned by their rounded percent (keeps the cache small for long reads). */
export const MAX_MODEL_LENGTH = 1000;

interface GcModel {
  /** For each GC count 0..L: the first bin it claims. */
  low: Int32Array;
  /** For each GC count 0..L: the last bin it claims. */
  high: Int32Array;
  /** For each bin: 1 / how many counts claim it. */
  weight: Float64Array;
}

const models = new Map<number, GcModel>();

// Java's Math.round: half up.
const javaRound = (x: number) => Math.floor(x + 0.5);

function buildModel(length: number): GcModel {
  const low = new Int32Array(length + 1);
  const high = new Int32Array(length + 1);
  const claims = new Float64Array(101);
  for (let pos = 0; pos <= length; pos++) {
    const lowCount = Math.min(length, Math.max(0, pos - 0.5));
    const highCount = Math.min(length, Math.max(0, pos + 0.5));
    low[pos] = javaRound((lowCount * 100) / length);
    high[pos] = javaRound((highCount * 100) / length);
    for (let p = low[pos]!; p <= high[pos]!; p++) claims[p]!++;
  }
  const weight = new Float64Array(101);
  for (let p = 0; p <= 100; p++) weight[p] = claims[p]! > 0 ? 1 / claims[p]! : 0;
  return { low, high, weight };
}

/** Adds one read of `length` bases with `gc` G/C bases to a 101-bin FastQC GC distribution. */
export function addGcRead(distribution: Float64Array, length: number, gc: number): void {
  if (length <= 0) return;
  if (length > MAX_MODEL_LENGTH) {
    distribution[Math.round((100 * gc) / length)]!++;
    return;
  }
  let model = models.get(length);
  if (!model) {
    model = buildModel(length);
    models.set(length, model);
  }
  for (let p = model.low[gc]!; p <= model.high[gc]!; p++) distribution[p]! += model.weight[p]!;
}
