/**
 * Which pipelines can run on an execution's outputs: those whose `upstream_pipelines` name the
 * execution's pipeline (API.md, Chaining). Names compare without case, as the service's check does.
 */

/** An upstream pipeline as listed: by name, or as the catalogue's `{ id, name }`. */
export type UpstreamEntry = string | { name: string };

/** The names of the pipelines whose executions a pipeline can chain from. */
export function upstreamNames(upstream: readonly UpstreamEntry[] | undefined): string[] {
  return (upstream ?? []).map((u) => (typeof u === 'object' ? u.name : String(u)));
}

/** True when a pipeline with these upstream pipelines can take the outputs of a run of `from`. */
export function chainsFrom(upstream: readonly UpstreamEntry[] | undefined, from: string): boolean {
  return upstreamNames(upstream).some((n) => n.toLowerCase() === from.toLowerCase());
}
