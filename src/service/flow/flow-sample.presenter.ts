/**
 * Samples in Flow's shapes (FLOW-WIRE.md P1-9, P1-10): string ids, Unix times, the category as
 * the sample type, the organism with its code, metadata keyed by attribute with its name.
 */
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { projectById } from '../projects/projects.store';
import { presentSample } from '../samples/samples.presenter';
import type { SampleRow } from '../samples/samples.store';
import { loadVocabularies } from '../vocabularies/vocabularies';
import { flowOrganisms } from './flow-vocabulary';

/** Unix seconds of an ISO time (null stays null). */
export function unix(iso: string | null): number | null {
  return iso === null ? null : Math.floor(Date.parse(iso) / 1000);
}

function organismOf(latin: unknown) {
  const o = flowOrganisms().find((x) => x.latin_name === latin);
  return o ? { id: o.id, name: o.name, latin_name: o.latin_name } : null;
}

function metadataOf(metadata: Record<string, unknown>) {
  const fields = loadVocabularies().fields;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (key === 'organism' || key === 'category') continue;
    const f = fields.find((x) => x.key === key);
    out[key] = {
      attribute_name: f?.label ?? key,
      attribute_description: f?.description ?? '',
      is_list: false,
      url_pattern: null,
      value: value === null ? '' : String(value),
      annotation: '',
    };
  }
  return out;
}

function firstProject(ctx: ServiceContext, ids: number[] | undefined) {
  const first = ids?.[0];
  return first === undefined ? undefined : projectById(ctx.db, first);
}

/** An item of /samples/search. */
export function flowSampleSummary(ctx: ServiceContext, row: SampleRow, user: AuthUser) {
  const s = presentSample(ctx, row, user);
  const project = firstProject(ctx, s.project_ids);
  const category = typeof s.metadata.category === 'string' ? s.metadata.category : null;
  const organism = organismOf(s.metadata.organism);
  return {
    id: String(s.id),
    name: s.name,
    created: unix(s.created ?? null),
    can_delete: s.can_edit,
    organism: organism ? { id: organism.id, name: organism.name } : null,
    sample_type: category ? { identifier: category, name: category } : null,
    metadata: metadataOf(s.metadata),
    project_name: project?.name ?? null,
    owner_name: s.owner,
    is_paired: s.paired,
  };
}

/** GET /samples/{id}. */
export function flowSampleDetail(ctx: ServiceContext, row: SampleRow, user: AuthUser) {
  const s = presentSample(ctx, row, user);
  const project = firstProject(ctx, s.project_ids);
  const reads = s.data.filter((d) => d.id === s.read1 || d.id === s.read2);
  return {
    id: String(s.id),
    created: unix(s.created ?? null),
    name: s.name,
    private: true,
    can_edit: s.can_edit,
    pubmed: null,
    sample_type: typeof s.metadata.category === 'string' ? s.metadata.category : null,
    metadata: metadataOf(s.metadata),
    organism: organismOf(s.metadata.organism),
    filesets: [
      {
        id: String(s.id),
        created: unix(s.created ?? null),
        data: reads.map((d) => ({ id: String(d.id), filename: d.filename, size: d.size })),
      },
    ],
    owner: s.owner ? { username: s.owner, name: s.owner, image: null } : null,
    group_owner: s.group_owner ? { slug: s.group_owner, name: s.group_owner } : null,
    project: project ? { id: String(project.id), name: project.name } : null,
    lane_id: s.lane_id === null ? null : String(s.lane_id),
  };
}

/** An item of /samples/{id}/data: inputs and pipeline outputs. */
export function flowSampleData(ctx: ServiceContext, row: SampleRow, user: AuthUser) {
  const s = presentSample(ctx, row, user);
  return s.data.map((d) => ({
    id: String(d.id),
    filename: d.filename,
    size: d.size,
    created: d.created,
    pipeline_name: null,
    process_execution_name: null,
    sample_name: s.name,
    owner_name: s.owner,
    can_delete: s.can_edit,
  }));
}
