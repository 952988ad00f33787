/**
 * A run chained after alignments uses the reference they were made against (the service refuses
 * another, and fills it in when none is sent): the form shows that reference chosen, so that
 * what it shows is what runs.
 */
import type { PipelineParameter } from '../../../../shared/pipelines/parameters';
import type { Execution } from '../../service-client/types';

/** The FASTA parameters of this version that the upstream execution set, with its values. */
export function upstreamReferences(params: PipelineParameter[], upstream: Execution | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!upstream) return out;
  for (const p of params) {
    const value = upstream.parameters?.[p.name];
    if (p.type === 'file' && (p.data_types ?? []).includes('fasta') && typeof value === 'number')
      out[p.name] = String(value);
  }
  return out;
}
