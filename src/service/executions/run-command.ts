/**
 * The run command, shared by REST and GraphQL: checks in API.md's order (permission to run,
 * samples visible and compatible, missing parameters, invalid parameters), then queues the
 * execution. Chaining takes the upstream execution's samples and outputs as inputs.
 */
import { MAX_RUN_NAME_LENGTH } from '../../shared/limits';
import { randomBytes } from 'node:crypto';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { canReadData, unreadableData } from '../policy/derived-data';
import { accessTo, ownerFor, requireAccess } from '../policy/policy';
import { isClusterRun } from '../engines/engine-for';
import type { Catalogue, CataloguePipeline, CatalogueVersion } from '../pipelines/catalogue';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../shared/json-depth';
import { checkParameters } from '../../shared/pipelines/parameters';
import { chainsFrom } from '../../shared/pipelines/chainable';
import { demuxParameterProblems } from '../../shared/pipelines/demux-parameters';
import { logExecution } from './execution-log';
import { executionSampleIds, getExecution, insertExecution, type ExecutionRow } from './executions.store';
import { bamOutputBySample, dataTypeOfRecord, fastqOutputsBySample, loadSample, sampleMetadata } from './run-inputs';
import { checkResources, type Capacity } from '../engines/run-resources';
import { chainedReferences, referenceMismatches, withUpstreamReference } from './chained-reference';

export interface RunInput {
  name?: string;
  samples?: number[];
  parameters?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  upstream_execution?: number | null;
  priority?: 'high' | 'normal' | 'low';
  resources?: { cpus?: unknown; memory?: unknown; queue?: unknown; time_limit?: unknown };
  test_mode?: boolean;
  group_owner?: string | null;
}

export const PRIORITY = { low: 0, normal: 1, high: 2 } as const;
export const PRIORITY_NAMES = ['low', 'normal', 'high'] as const;

/** Normalises a data type for comparison: fastq.gz and FASTQ are fastq. */
function normType(t: string): string {
  return t.toLowerCase().replace(/\.(gz|bz2|zst)$/, '');
}

function checkUpstream(ctx: ServiceContext, user: AuthUser, pipeline: CataloguePipeline, id: number): ExecutionRow {
  const row = getExecution(ctx.db, id);
  if (!row || accessTo(ctx.db, 'execution', id, user) === null) {
    throw errors.validation({ upstream_execution: 'no such execution among yours' });
  }
  if (!chainsFrom(pipeline.manifest.upstream_pipelines, row.pipeline_name)) {
    throw errors.validation({
      upstream_execution: `must be an execution of ${pipeline.manifest.upstream_pipelines.join(' or ') || 'an upstream pipeline (this pipeline has none)'}, not ${row.pipeline_name}`,
    });
  }
  if (row.status !== 'completed') {
    throw errors.validation({ upstream_execution: `must be completed (it is ${row.status})` });
  }
  return row;
}

function checkSamples(
  ctx: ServiceContext,
  user: AuthUser,
  version: CatalogueVersion,
  ids: number[],
  upstream: ExecutionRow | null,
): void {
  for (const id of ids) requireAccess(ctx.db, 'sample', id, user, 'view');
  const req = version.manifest.requirements;
  const invalid: Array<{ sample_id: number | null; reason: string }> = [];
  if (ids.length < req.min_samples) {
    invalid.push({
      sample_id: null,
      reason: `this pipeline needs at least ${req.min_samples} sample(s), got ${ids.length}`,
    });
  }
  // Demultiplexing runs on its input file: a sample chosen beside it once replaced that file silently.
  if (req.max_samples !== undefined && ids.length > req.max_samples) {
    invalid.push({
      sample_id: null,
      reason:
        req.max_samples === 0
          ? `this pipeline takes no samples (it runs on the files given as its parameters), got ${ids.length}`
          : `this pipeline takes at most ${req.max_samples} sample(s), got ${ids.length}`,
    });
  }
  const chained = upstream ? fastqOutputsBySample(ctx, upstream.id) : null;
  const bams = upstream ? bamOutputBySample(ctx, upstream.id) : null;
  const wanted = req.required_data_types.map(normType);
  const organisms = req.supported_organisms.map((o) => o.toLowerCase());
  for (const id of ids) {
    const row = loadSample(ctx, id)!;
    const bam = bams?.get(id);
    const reads = chained
      ? (chained.get(id) ?? (bam !== undefined ? [bam] : []))
      : [row.read1_id, row.read2_id].filter((r): r is number => r !== null);
    if (upstream && reads.length === 0) {
      invalid.push({ sample_id: id, reason: `the upstream execution produced no reads for sample ${row.name}` });
      continue;
    }
    // Bytes follow the data record: view on a sample (or an execution) does not include its files.
    const unreadable = unreadableData(ctx.db, reads, user);
    if (unreadable.length) {
      invalid.push({
        sample_id: id,
        reason: `${upstream ? 'the upstream outputs' : 'the read files'} of sample ${row.name} (data ${unreadable.join(', ')}) are not shared with you`,
      });
      continue;
    }
    if (wanted.length) {
      const types = reads
        .map((r) => dataTypeOfRecord(ctx, r))
        .filter((t): t is string => t !== null)
        .map(normType);
      if (types.length === 0 || !types.some((t) => wanted.includes(t))) {
        invalid.push({
          sample_id: id,
          reason: `needs ${req.required_data_types.join(' or ')} data, sample has ${types.join(', ') || 'none'}`,
        });
        continue;
      }
    }
    if (organisms.length) {
      const organism = sampleMetadata(row).Organism ?? sampleMetadata(row).organism;
      if (typeof organism !== 'string' || !organisms.includes(organism.toLowerCase())) {
        invalid.push({
          sample_id: id,
          reason: `organism ${typeof organism === 'string' ? organism : '(none)'} is not supported (${req.supported_organisms.join(', ')})`,
        });
      }
    }
  }
  if (invalid.length) {
    throw new ApiError('INVALID_SAMPLES', 'Some samples cannot be used with this pipeline version', {
      invalid_samples: invalid,
    });
  }
}

/** Validates a run request and queues the execution; returns its row. */
export function createRun(
  ctx: ServiceContext,
  catalogue: Catalogue,
  capacity: Capacity,
  user: AuthUser,
  versionId: number,
  input: RunInput,
  origin: { rerunOf?: number } = {},
): ExecutionRow {
  if (!user.canRunPipelines) throw new ApiError('INSUFFICIENT_PERMISSIONS', 'Your account may not run pipelines');
  // GraphQL variables arrive without the REST body parser's depth limit: storing a value
  // nested thousands deep would overflow JSON.stringify's stack.
  for (const key of ['metadata', 'parameters', 'resources'] as const) {
    if (nestsDeeperThan(input[key], MAX_JSON_DEPTH)) {
      throw errors.validation({ [key]: `nested deeper than ${MAX_JSON_DEPTH} levels` });
    }
  }
  const found = catalogue.version(versionId);
  if (!found) throw errors.notFound('Pipeline version');
  const { pipeline, version } = found;
  const upstream =
    input.upstream_execution != null ? checkUpstream(ctx, user, pipeline, input.upstream_execution) : null;
  const sampleIds = input.samples ?? (upstream ? executionSampleIds(ctx.db, upstream.id) : []);
  if (new Set(sampleIds).size !== sampleIds.length) throw errors.validation({ samples: 'each sample at most once' });
  checkSamples(ctx, user, version, sampleIds, upstream);
  // Chained after alignments: the reference left out is theirs, and another one is refused below.
  const chain = chainedReferences(ctx, catalogue, version, upstream);
  const readable = (id: number) => canReadData(ctx.db, id, user);
  const check = checkParameters(
    version.manifest.parameters,
    withUpstreamReference(chain, input.parameters ?? {}, readable),
  );
  if (check.missing.length) {
    throw new ApiError('MISSING_PARAMETERS', `Missing required parameters: ${check.missing.join(', ')}`, {
      missing_params: check.missing,
    });
  }
  for (const p of version.manifest.parameters) {
    const v = check.values[p.name];
    if (p.type !== 'file' || typeof v !== 'number') continue;
    if (accessTo(ctx.db, 'data', v, user) === null) {
      check.invalid[p.name] = 'no such data record among yours';
      continue;
    }
    // A file parameter that declares data types takes only records of those types.
    const type = dataTypeOfRecord(ctx, v);
    if (p.data_types?.length && !p.data_types.includes(normType(type ?? ''))) {
      check.invalid[p.name] = `must be a ${p.data_types.join(' or ')} data record (this one is ${type ?? 'unknown'})`;
    }
  }
  for (const [n, why] of Object.entries(referenceMismatches(ctx, chain, check.values, readable)))
    check.invalid[n] ??= why;
  const engine = version.manifest.engine;
  if (engine.kind === 'builtin' && engine.worker === 'demux') {
    check.invalid = { ...demuxParameterProblems(check.values), ...check.invalid };
  }
  if (Object.keys(check.invalid).length) {
    throw new ApiError('INVALID_PARAMETERS', 'Some parameters are invalid', { fields: check.invalid });
  }
  const local = !isClusterRun(version.manifest);
  const { resources, fields } = checkResources(
    input.resources,
    { cpus: version.manifest.default_cpus },
    capacity,
    local,
  );
  if (!resources) throw errors.validation(fields, 'Invalid resources');
  if (version.machineReason) throw errors.conflict(version.machineReason);
  const owner = ownerFor(ctx.db, user, input.group_owner);
  const now = new Date(ctx.clock.now()).toISOString();
  const name = input.name?.trim() || `${pipeline.manifest.name} ${version.manifest.version}`;
  // The REST schema caps the name; GraphQL and re-runs come here without it (issue 24).
  if (name.length > MAX_RUN_NAME_LENGTH) {
    throw errors.validation({ name: `at most ${MAX_RUN_NAME_LENGTH} characters` });
  }
  const id = ctx.db.transaction(() => {
    const execId = insertExecution(
      ctx.db,
      {
        name,
        pipeline_id: pipeline.id,
        version_id: version.id,
        pipeline_name: pipeline.manifest.name,
        version_label: version.manifest.version,
        priority: PRIORITY[input.priority ?? 'normal'],
        parameters: JSON.stringify(check.values),
        metadata: JSON.stringify(input.metadata ?? {}),
        resources: JSON.stringify(resources),
        test_mode: input.test_mode ? 1 : 0,
        upstream_execution_id: upstream?.id ?? null,
        created: now,
        callback_secret: randomBytes(24).toString('hex'),
        ...owner,
        rerun_of: origin.rerunOf ?? null,
      },
      sampleIds,
    );
    audit(
      ctx,
      user,
      'ran',
      { kind: 'execution', id: execId, name },
      {
        pipeline: pipeline.manifest.name,
        version: version.manifest.version,
        samples: sampleIds,
        ...(origin.rerunOf !== undefined ? { rerun_of: origin.rerunOf } : {}),
      },
    );
    return execId;
  })();
  const row = getExecution(ctx.db, id)!;
  logExecution(ctx, row, 'queued');
  return row;
}
