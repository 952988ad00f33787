/**
 * Laneway's records in the shapes flowbio's legacy `Client` selects (FLOW-WIRE.md §6): camelCase
 * fields, string ids, Unix times, JSON-encoded parameter strings. Built from the same
 * presenters as the v2 mount, so what a caller may see is decided in one place (the policy);
 * fields this service has no value for (genomes, Nextflow versions, stdout) are null or empty.
 */
import type { AuthUser } from '../../auth/authenticate';
import { membershipsOfUser, userByUsername } from '../../auth/users.store';
import type { ServiceContext } from '../../context';
import { getDataRow, type DataRow } from '../../data/data.store';
import { presentData } from '../../data/data.presenter';
import { presentExecution } from '../../executions/execution-presenter';
import { getExecution } from '../../executions/executions.store';
import { latestVersion, type Catalogue } from '../../pipelines/catalogue';
import { requireAccess } from '../../policy/policy';
import { presentSample } from '../../samples/samples.presenter';
import { sampleById } from '../../samples/samples.store';
import { flowLogFrom } from '../flow-execution-log';
import { flowStatus } from '../flow-execution.presenter';
import { flowCategories } from '../flow-pipeline.presenter';
import { flowSampleDetail, unix } from '../flow-sample.presenter';

const seconds = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) / 1000 : null);

/** A user as the legacy `user(username)` answers it: one's own account, anyone's for an admin, else a colleague's. */
export function legacyUser(ctx: ServiceContext, caller: AuthUser, username: string) {
  const row = userByUsername(ctx.db, username);
  if (!row || row.disabled) return null;
  if (row.id !== caller.id && !caller.isAdmin) {
    // Only people who share a group with the caller are visible: usernames are not a directory.
    const groupsOf = (id: number) =>
      new Set(
        membershipsOfUser(ctx.db, id)
          .filter((m) => m.role !== 'invited')
          .map((m) => m.slug),
      );
    const mine = groupsOf(caller.id);
    if (![...groupsOf(row.id)].some((slug) => mine.has(slug))) return null;
  }
  return { id: String(row.id), username: row.username, name: row.name };
}

function ownerRef(ctx: ServiceContext, username: string | null | undefined) {
  if (!username) return null;
  const row = userByUsername(ctx.db, username);
  return { id: row ? String(row.id) : username, username, name: row?.name ?? username };
}

/** `data(id)`: a data record the caller may read (404 otherwise, as the REST mount). */
export function legacyData(ctx: ServiceContext, user: AuthUser, id: number) {
  requireAccess(ctx.db, 'data', id, user, 'view');
  const row = getDataRow(ctx, id) as DataRow;
  const d = presentData(ctx, row, user);
  // Only a sample and a run the caller may see (presentData names no others).
  const sample = d.sample_id !== null && d.sample_id !== undefined ? sampleById(ctx, d.sample_id) : undefined;
  const execution =
    d.execution_id !== null && d.execution_id !== undefined ? getExecution(ctx.db, d.execution_id) : undefined;
  return {
    id: String(d.id),
    filename: d.filename,
    filetype: d.data_type,
    size: d.size,
    category: d.data_type,
    created: unix(d.created),
    isDirectory: false,
    isBinary: /\.(gz|bgz|bam|cram)$/i.test(d.filename),
    private: true,
    upstreamProcessExecution: execution
      ? {
          id: String(execution.id),
          processName: null,
          execution: {
            id: String(execution.id),
            pipelineVersion: {
              id: String(execution.version_id),
              pipeline: { id: String(execution.pipeline_id), name: execution.pipeline_name },
            },
          },
        }
      : null,
    sample: sample ? { id: String(sample.id), name: sample.name } : null,
    project: null,
    owner: ownerRef(ctx, d.owner),
    genome: null,
    genomeFasta: null,
    genomeGtf: null,
  };
}

/** `sample(id)`. */
export function legacySample(ctx: ServiceContext, user: AuthUser, id: number) {
  requireAccess(ctx.db, 'sample', id, user, 'view');
  const row = sampleById(ctx, id)!;
  const s = presentSample(ctx, row, user);
  const flow = flowSampleDetail(ctx, row, user);
  const reads = s.data.filter((d) => d.id === s.read1 || d.id === s.read2);
  const meta = (key: string): string | null => {
    const v = s.metadata[key];
    return v === undefined || v === null || v === '' ? null : String(v);
  };
  return {
    id: String(s.id),
    name: s.name,
    private: true,
    created: unix(s.created ?? null),
    sampleType: flow.sample_type,
    owner: ownerRef(ctx, s.owner),
    initialData: reads.map((d) => ({
      id: String(d.id),
      created: unix(d.created ?? null),
      data: { id: String(d.id), filename: d.filename },
    })),
    organism: flow.organism ? { id: flow.organism.id, name: flow.organism.name } : null,
    project: flow.project,
    strandedness: meta('strandedness'),
    rnaSelectionMethod: meta('rna_selection_method'),
    pubmed: null,
  };
}

/** `execution(id)`. */
export function legacyExecution(ctx: ServiceContext, user: AuthUser, id: number) {
  requireAccess(ctx.db, 'execution', id, user, 'view');
  const row = getExecution(ctx.db, id)!;
  const e = presentExecution(ctx, row, user, true);
  const owner = ownerRef(ctx, e.owner);
  const outputs = (e.outputs ?? []).map((o) => ({
    id: String(o.id),
    filename: o.filename,
    filetype: o.data_type,
    size: o.size,
    created: unix(e.finished ?? e.created),
    owner: owner ? { name: owner.name } : null,
    isRemoved: false,
  }));
  const samples = e.samples.filter((s) => s.name !== null).map((s) => ({ id: String(s.id), name: s.name }));
  const steps = e.process_executions ?? [];
  return {
    id: String(e.id),
    pipelineVersion: {
      id: String(e.pipeline_version.id),
      name: e.pipeline_version.version,
      description: null,
      schema: null,
      pipeline: { id: String(e.pipeline.id), name: e.pipeline.name },
    },
    nextflowVersion: null,
    forcedPublicProjectId: null,
    forcedPublicSampleId: null,
    canEdit: e.can_edit === true,
    canShare: e.can_share === true,
    created: unix(e.created),
    started: seconds(e.started),
    finished: seconds(e.finished),
    taskStarted: seconds(e.started),
    taskFinished: seconds(e.finished),
    identifier: e.name,
    private: true,
    hasReport: false,
    params: JSON.stringify(e.parameters),
    dataParams: '{}',
    sampleParams: JSON.stringify({ samples: e.samples.map((s) => String(s.id)) }),
    stdout: '',
    stderr: e.error ?? '',
    status: flowStatus(e.status),
    dependent: false,
    command: '',
    log: flowLogFrom(ctx.db, id),
    upstreamData: [],
    owner,
    upstreamSamples: samples,
    genome: null,
    sample: samples.length === 1 ? samples[0] : null,
    project: null,
    // The service records outputs per run, not per step: they are listed under the last step.
    processExecutions: steps.map((p, i) => ({
      id: `${e.id}:${p.name}`,
      identifier: p.name,
      name: p.name,
      processName: p.name,
      started: seconds(p.start_time),
      finished: seconds(p.end_time),
      stdout: '',
      stderr: '',
      bash: '',
      status: p.status.toUpperCase(),
      exitCode: p.exit_code,
      upstreamData: [],
      upstreamSamples: samples,
      downstreamData: i === steps.length - 1 ? outputs : [],
    })),
  };
}

/**
 * `pipelineCategories`: each pipeline with ONE version, as Flow's legacy API lists it (flowbio
 * indexes pipelines by name, so a second entry of the same name would hide the first); the
 * latest version is the one offered.
 */
export function legacyCategories(catalogue: Catalogue) {
  return flowCategories(catalogue).map((c) => ({
    name: c.name,
    subcategories: c.subcategories.map((s) => ({
      name: s.name,
      pipelines: s.pipelines.map((p) => {
        const pipeline = catalogue.pipeline(Number(p.id));
        const newest = pipeline ? latestVersion(pipeline) : undefined;
        return {
          name: p.name,
          version: newest ? { id: String(newest.id), name: newest.manifest.version } : null,
        };
      }),
    })),
  }));
}

/** The id argument of a legacy query, as the service's integer id (undefined when it is none). */
export function legacyId(value: unknown): number | undefined {
  const text = value === null || value === undefined ? '' : String(value);
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}
