/**
 * The trimming pipeline's parameters, read from the job with defaults and range checks (the
 * catalogue validates them too; the engine does not trust its input).
 */

export interface TrimParameters {
  adapter: string;
  adapter2: string;
  qualityCutoff: number;
  minLength: number;
  errorRate: number;
  minOverlap: number;
  compress: boolean;
}

function num(
  params: Record<string, unknown>,
  name: string,
  fallback: number,
  min: number,
  max: number,
  integer: boolean,
): number {
  const v = params[name];
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new Error(`parameter ${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return n;
}

/** Reads the trimming parameters; throws with the parameter's name when one is out of range. */
export function trimParameters(params: Record<string, unknown>): TrimParameters {
  const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());
  const adapter = text(params.adapter) || 'auto';
  const compress = params.compress === undefined ? true : params.compress === true || params.compress === 'true';
  return {
    adapter,
    // Empty: read 2's own adapter (the mate of read 1's kit, or the sample sheet's), not read 1's.
    adapter2: text(params.adapter2),
    qualityCutoff: num(params, 'quality_cutoff', 20, 0, 93, true),
    minLength: num(params, 'min_length', 20, 0, 1_000_000, true),
    errorRate: num(params, 'error_rate', 0.1, 0, 0.5, false),
    minOverlap: num(params, 'min_overlap', 3, 1, 1000, true),
    compress,
  };
}
