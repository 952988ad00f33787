/** Which pipelines can run on an execution's outputs: those that name its pipeline upstream. */
import type { Pipeline } from '../../service-client/types';

/** The names of the pipelines whose executions `p` can chain from. */
export function upstreamNames(p: Pipeline): string[] {
  return (p.upstream_pipelines ?? []).map((u) => (typeof u === 'object' ? u.name : String(u)));
}

/** True when `p` can take the outputs of an execution of the pipeline named `from`. */
export function chainsFrom(p: Pipeline, from: string): boolean {
  return upstreamNames(p).some((n) => n.toLowerCase() === from.toLowerCase());
}
