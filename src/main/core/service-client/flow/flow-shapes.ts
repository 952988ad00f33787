/**
 * Flow's answers (FLOW-WIRE.md P1-3, P1-10, P1-13 to P1-18, §5 data) in the shapes of
 * Laneway's `/api` that the desktop core reads: integer ids, ISO times, Laneway's execution
 * statuses. Only the fields the core reads are filled; what Flow does not have is left out
 * or neutral (a Flow account has no e-mail, groups are Flow's memberships).
 */
import { screenProcesses } from './flow-screen-shapes';

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const num = (v: unknown): number => Number(v);
const iso = (unix: unknown): string | null =>
  typeof unix === 'number' ? new Date(unix * 1000).toISOString() : typeof unix === 'string' ? unix : null;

/** Flow's `/me` as Laneway's `/api/me`. */
export function laneMe(raw: unknown): Obj {
  const r = obj(raw);
  return {
    id: num(r.id),
    username: str(r.username),
    email: str(r.email),
    name: str(r.name),
    is_admin: r.is_admin === true,
    can_run_pipelines: r.can_run_pipelines === true,
    groups: (Array.isArray(r.memberships) ? r.memberships : []).map((m) => ({
      slug: str(obj(m).slug),
      name: str(obj(m).name),
      role: obj(m).is_admin === true ? 'admin' : 'member',
    })),
    invitations: [],
  };
}

/** Flow's execution status (`""` or `"-"` while pending or running) as Laneway's. */
export function laneStatus(status: unknown, started: unknown): string {
  switch (status) {
    case 'OK':
      return 'completed';
    case 'ERROR':
      return 'failed';
    case 'CANCELED':
      return 'cancelled';
    default:
      return started === null || started === undefined ? 'queued' : 'running';
  }
}

/** A Flow execution (search item or detail) as Laneway's; `name` is the launch's own name when known. */
export function laneExecution(raw: unknown, name: string | null): Obj {
  const e = obj(raw);
  const status = laneStatus(e.status, e.started);
  const outputs = Array.isArray(e.downstream_data) ? e.downstream_data : [];
  const pipeline = obj(e.pipeline);
  return {
    id: num(e.id),
    name: name ?? str(e.identifier),
    status,
    progress: ['completed', 'failed', 'cancelled'].includes(status) ? 100 : 0,
    created: iso(e.created) ?? '',
    started: iso(e.started),
    finished: iso(e.finished),
    pipeline: { id: num(pipeline.id ?? 0), name: str(e.pipeline_name ?? pipeline.name) },
    samples: Array.isArray(e.samples)
      ? e.samples.map((s) => ({ id: num(obj(s).id), name: str(obj(s).name) }))
      : e.sample
        ? [{ id: num(obj(e.sample).id), name: str(obj(e.sample).name) }]
        : [],
    outputs: outputs.map((o) => ({
      id: num(obj(o).id),
      filename: str(obj(o).filename),
      size: typeof obj(o).size === 'number' ? obj(o).size : null,
      data_type: str(obj(o).filetype),
    })),
    error: status === 'failed' ? str(e.stderr) || null : null,
    ...(e.process_executions !== undefined ? { process_executions: screenProcesses(e.process_executions) } : {}),
    ...(e.params && typeof e.params === 'object' ? { parameters: e.params } : {}),
    ...(pipeline.version || e.pipeline_version
      ? { pipeline_version: { id: 0, version: str(pipeline.version ?? e.pipeline_version) } }
      : {}),
    ...(typeof e.started === 'number'
      ? { duration: (typeof e.finished === 'number' ? e.finished : Date.now() / 1000) - e.started }
      : {}),
    owner: str(obj(e.owner).username ?? e.owner_name) || null,
    group_owner: null,
    can_edit: e.can_delete === true,
    can_share: false,
    rerun: { allowed: false, reason: 'Running an execution again is not offered by a Flow server' },
    resume: { allowed: false, reason: 'Resuming an execution is not offered by a Flow server' },
  };
}

/** Flow's pipeline detail (P1-14) as Laneway's pipeline, versions newest first as Flow lists them. */
export function lanePipeline(raw: unknown, category: string): Obj {
  const p = obj(raw);
  const versions = Array.isArray(p.versions) ? p.versions : [];
  return {
    id: num(p.id),
    name: str(p.name),
    description: str(p.description),
    category: { id: 0, name: category },
    versions: versions.map((v, i) => ({
      id: num(obj(v).id),
      version: str(obj(v).name),
      is_latest: i === 0,
      can_run: true,
      engine: str((obj(v).nextflow_versions as unknown[] | undefined)?.[0]),
      parameters: [],
      requirements: {},
    })),
  };
}

/** Flow's data detail (§5) as Laneway's data record. */
export function laneData(raw: unknown): Obj {
  const d = obj(raw);
  const sample = d.sample ? obj(d.sample) : null;
  return {
    id: num(d.id),
    filename: str(d.filename),
    size: typeof d.size === 'number' ? d.size : null,
    data_type: str(d.filetype),
    sample_id: sample ? num(sample.id) : null,
    created: iso(d.created),
  };
}

/**
 * Flow's sample detail (P1-10) as Laneway's sample: metadata values by attribute, with Flow's
 * organism (by Latin name) and sample type as Laneway's `organism` and `category`.
 */
export function laneSample(raw: unknown): Obj {
  const s = obj(raw);
  const metadata: Obj = {};
  const organism = obj(s.organism);
  if (s.organism) metadata.organism = str(organism.latin_name ?? organism.name);
  if (s.sample_type)
    metadata.category = str(typeof s.sample_type === 'object' ? obj(s.sample_type).name : s.sample_type);
  for (const [k, v] of Object.entries(obj(s.metadata))) metadata[k] = obj(v).value ?? v;
  return { id: num(s.id), name: str(s.name), metadata, created: iso(s.created) };
}
