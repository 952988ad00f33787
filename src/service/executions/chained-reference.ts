/**
 * A run chained after alignments uses the reference those alignments were made against. The
 * upstream's BAMs carry positions on its reference; bcftools mpileup given another FASTA with the
 * same sequence names calls thousands of false variants, and given one with other names prints
 * an error, exits 0 and leaves an empty VCF. Neither fails the execution, so the mismatch is
 * caught here, before anything runs: a FASTA parameter left out takes the upstream's reference,
 * and one with other bytes is refused, naming the reference the alignments need.
 */
import type { ServiceContext } from '../context';
import { getDataRow } from '../data/data.store';
import type { Catalogue, CatalogueVersion } from '../pipelines/catalogue';
import type { ExecutionRow } from './executions.store';
import { bamOutputBySample } from './run-inputs';

interface UpstreamReference {
  id: number;
  filename: string;
  checksum: string;
}

const takesFasta = (p: { type: string; data_types?: string[] }) =>
  p.type === 'file' && (p.data_types ?? []).includes('fasta');

/** The FASTA records the upstream execution aligned against, when its outputs include alignments. */
function upstreamReferences(ctx: ServiceContext, catalogue: Catalogue, upstream: ExecutionRow): UpstreamReference[] {
  if (bamOutputBySample(ctx, upstream.id).size === 0) return [];
  const version = catalogue.version(upstream.version_id)?.version;
  if (!version) return [];
  let values: Record<string, unknown>;
  try {
    values = JSON.parse(upstream.parameters) as Record<string, unknown>;
  } catch {
    return [];
  }
  const refs: UpstreamReference[] = [];
  for (const p of version.manifest.parameters.filter(takesFasta)) {
    const id = values[p.name];
    const row = typeof id === 'number' ? getDataRow(ctx, id) : undefined;
    if (row) refs.push({ id: row.id, filename: row.filename, checksum: row.checksum });
  }
  return refs;
}

/** What a run of `version` chained from `upstream` must align with: its FASTA parameters and the upstream's references. */
export interface ChainedReferences {
  fastaParams: string[];
  refs: UpstreamReference[];
  upstream: ExecutionRow;
}

/** The references a chained run is held to, or null when it takes no alignments or no FASTA. */
export function chainedReferences(
  ctx: ServiceContext,
  catalogue: Catalogue,
  version: CatalogueVersion,
  upstream: ExecutionRow | null,
): ChainedReferences | null {
  const fastaParams = version.manifest.parameters.filter(takesFasta).map((p) => p.name);
  if (!upstream || fastaParams.length === 0) return null;
  const refs = upstreamReferences(ctx, catalogue, upstream);
  return refs.length === 0 ? null : { fastaParams, refs, upstream };
}

/**
 * The parameters with each FASTA parameter left out set to the upstream's reference, when it had
 * one and the caller may read it (an execution shared with its results does not share the
 * reference it ran with: a colleague then picks their own copy of it).
 */
export function withUpstreamReference(
  chain: ChainedReferences | null,
  parameters: Record<string, unknown>,
  canRead: (id: number) => boolean,
): Record<string, unknown> {
  if (!chain || chain.refs.length !== 1 || !canRead(chain.refs[0]!.id)) return parameters;
  const filled = { ...parameters };
  for (const name of chain.fastaParams) {
    const given = filled[name];
    if (given === undefined || given === null || given === '') filled[name] = chain.refs[0]!.id;
  }
  return filled;
}

/** The FASTA parameters (checked values) that are not a reference the upstream's alignments were made against, with why. */
export function referenceMismatches(
  ctx: ServiceContext,
  chain: ChainedReferences | null,
  values: Record<string, unknown>,
  canRead: (id: number) => boolean,
): Record<string, string> {
  const invalid: Record<string, string> = {};
  if (!chain) return invalid;
  const { refs, upstream } = chain;
  // A reference the caller may not read is named by its id only; the same bytes of their own pass.
  const named = refs
    .map((r) =>
      canRead(r.id)
        ? `${r.filename} (data ${r.id})`
        : `data ${r.id}, not shared with you (your own copy of the same FASTA will do)`,
    )
    .join(' or ');
  for (const name of chain.fastaParams) {
    const given = values[name];
    // Another record of the same bytes is the same reference; an unknown id is for the checks after.
    const row = typeof given === 'number' ? getDataRow(ctx, given) : undefined;
    if (!row || refs.some((r) => r.checksum === row.checksum)) continue;
    invalid[name] =
      `must be the reference the alignments of execution ${upstream.id} (${upstream.name}) were made against: ${named}, not ${row.filename} (data ${row.id}); to use another reference, align the reads to it first`;
  }
  return invalid;
}
