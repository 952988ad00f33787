/**
 * A run chained after alignments uses the reference they were made against (the service refuses
 * another, and fills it in when none is sent): the form shows that reference chosen, so that
 * what it shows is what runs. A reference the caller may not read (an execution shared with its
 * results does not share it) is left for them to choose: their own copy of it will do.
 */
import type { PipelineParameter } from '../../../../shared/pipelines/parameters';
import { getDataById } from '../../../../shared/service-api/endpoints';
import type { ServiceClient } from '../../service-client/http-client';
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

/** Those of `upstreamReferences` the caller may read (the service answers their record). */
export async function readableUpstreamReferences(
  client: ServiceClient,
  params: PipelineParameter[],
  upstream: Execution | null,
): Promise<Record<string, string>> {
  const refs = Object.entries(upstreamReferences(params, upstream));
  const readable = await Promise.all(
    refs.map(([, id]) =>
      client.call(getDataById, { params: { id: Number(id) } }).then(
        () => true,
        () => false,
      ),
    ),
  );
  return Object.fromEntries(refs.filter((_, i) => readable[i]));
}
