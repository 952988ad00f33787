/**
 * Which adapter each read of a sample is trimmed with. Read 1: the `adapter` parameter; left
 * at auto, the sample sheet's AdapterRead1 (kept in the sample's metadata as `adapter_read1`
 * when the run was ingested) wins over detection. Read 2: `adapter2` when given; otherwise
 * the sample sheet's AdapterRead2, else the read-2 mate of read 1's adapter (TruSeq read 1
 * AGATCGGAAGAGCACACGTCTGAACTCCAGTCA pairs with AGATCGGAAGAGCGTCGTGTAGGGAAAGAGTGT; Nextera
 * reads share CTGTCTCTTATACACATCT), never read 1's own sequence by default.
 */
import { KNOWN_ADAPTERS } from '../qc/known-adapters';
import type { TrimParameters } from './trim-parameters';
import { resolveAdapter, type ResolvedAdapter } from './trim-run';

function fromMetadata(
  metadata: Record<string, unknown> | undefined,
  key: string,
  name: string,
): ResolvedAdapter | null {
  const v = metadata?.[key];
  if (typeof v !== 'string' || !/^[ACGTN]{6,}$/i.test(v.trim())) return null;
  return { name, sequence: v.trim().toUpperCase(), source: 'sample-sheet' };
}

/** The adapter read 2 meets when read 1 meets `a`. */
export function readTwoMate(a: ResolvedAdapter): ResolvedAdapter {
  const known = KNOWN_ADAPTERS.find((k) => k.sequence === a.sequence);
  if (!known?.read2Sequence) return a;
  return { name: `${known.name} (read 2)`, sequence: known.read2Sequence, source: a.source };
}

export interface SampleForTrim {
  read1: string;
  read2?: string;
  metadata?: Record<string, unknown>;
}

/** Resolves both adapters of a sample. */
export async function sampleAdapters(
  params: Pick<TrimParameters, 'adapter' | 'adapter2'>,
  sample: SampleForTrim,
): Promise<{ adapter1: ResolvedAdapter | null; adapter2: ResolvedAdapter | null }> {
  const auto = params.adapter.trim().toLowerCase() === 'auto';
  const adapter1 =
    (auto ? fromMetadata(sample.metadata, 'adapter_read1', 'sample sheet AdapterRead1') : null) ??
    (await resolveAdapter(params.adapter, sample.read1));
  if (!sample.read2) return { adapter1, adapter2: null };
  if (params.adapter2) {
    const given = await resolveAdapter(params.adapter2, sample.read2);
    // Detection on read 2 finds the shared probe: trim with that kit's read 2 adapter.
    return { adapter1, adapter2: given && given.source === 'auto' ? readTwoMate(given) : given };
  }
  const sheet = auto ? fromMetadata(sample.metadata, 'adapter_read2', 'sample sheet AdapterRead2') : null;
  return { adapter1, adapter2: sheet ?? (adapter1 ? readTwoMate(adapter1) : null) };
}
