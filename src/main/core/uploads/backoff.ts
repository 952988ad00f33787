/** Retry delays: exponential with full jitter, capped, driven by an injected random source. */

/** Delay before retry number `attempt` (1-based): a random share of min(cap, base * 2^(attempt-1)). */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  baseMs = 1_000,
  capMs = 5 * 60_000,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  // Half fixed, half random: spreads retries of many clients yet never retries at once.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
