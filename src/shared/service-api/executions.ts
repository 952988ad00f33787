/**
 * Executions: GET /api/executions/ and /api/executions/{id}, the logs after a cursor, cancel,
 * re-run and resume, and the Nextflow weblog receiver.
 */
import { Type, type Static } from 'typebox';
import { PageQueryProperties, Page } from './page';
import { AccessProperties, Nullable, NullableInteger, NullableString, StringEnum } from './resource';

export const ExecutionStatus = StringEnum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export type ExecutionStatus = Static<typeof ExecutionStatus>;

const NullableNumber = Nullable(Type.Number());

/** One process of an execution (a step, or a task of a workflow engine). */
export const ProcessExecution = Type.Object({
  name: Type.String(),
  status: Type.String(),
  progress: Type.Number(),
  start_time: Type.Optional(NullableString),
  end_time: Type.Optional(NullableString),
  exit_code: Type.Optional(NullableInteger),
  resources: Type.Optional(
    Type.Object({ cpu_percent: Type.Optional(NullableNumber), memory_gb: Type.Optional(NullableNumber) }),
  ),
});
export type ProcessExecution = Static<typeof ProcessExecution>;

/** One log entry; `id` is the cursor of the logs route. */
export const LogEntry = Type.Object({
  id: Type.Integer(),
  timestamp: Type.String(),
  process: Type.String(),
  message: Type.String(),
  level: Type.String(),
});
export type LogEntry = Static<typeof LogEntry>;

/** An output of an execution: a data record, downloaded as data. */
export const ExecutionOutput = Type.Object({
  id: Type.Integer(),
  filename: Type.String(),
  size: Type.Integer(),
  data_type: Type.String(),
  path: Type.Optional(NullableString),
  sample_id: Type.Optional(NullableInteger),
});
export type ExecutionOutput = Static<typeof ExecutionOutput>;

const action = (description: string) =>
  Type.Object({ allowed: Type.Boolean(), reason: NullableString }, { description });

/** What the caller may do with an execution, and why not. */
export const ExecutionAction = action('Whether the caller may do it, and why not');
export type ExecutionAction = Static<typeof ExecutionAction>;

const FreeObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

/** An execution as the caller sees it; the detail adds processes, outputs and the latest logs. */
export const Execution = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: ExecutionStatus,
  progress: Type.Number(),
  created: Type.String(),
  started: Type.Optional(NullableString),
  finished: Type.Optional(NullableString),
  duration: Type.Optional(NullableNumber),
  pipeline: Type.Optional(Type.Object({ id: Type.Integer(), name: Type.String() })),
  pipeline_version: Type.Optional(Type.Object({ id: Type.Integer(), version: Type.String() })),
  samples: Type.Optional(Type.Array(Type.Object({ id: Type.Integer(), name: NullableString }))),
  parameters: Type.Optional(FreeObject),
  metadata: Type.Optional(FreeObject),
  priority: Type.Optional(Type.String()),
  resources: Type.Optional(
    Type.Object({
      cpus: Type.Optional(Type.Integer()),
      memory_gb: Type.Optional(NullableNumber),
      queue: Type.Optional(NullableString),
      time_limit: Type.Optional(NullableNumber),
    }),
  ),
  test_mode: Type.Optional(Type.Boolean()),
  upstream_execution: Type.Optional(NullableInteger),
  workflow_checksum: Type.Optional(NullableString),
  tool_versions: Type.Optional(
    Type.Unsafe<Record<string, string | null> | null>({
      type: ['object', 'null'],
      additionalProperties: { type: ['string', 'null'] },
    }),
  ),
  rerun_of: Type.Optional(Nullable(Type.Integer({ description: 'The execution this one re-runs' }))),
  resumes: Type.Optional(Type.Integer({ description: 'How many times this execution was resumed' })),
  error: Type.Optional(NullableString),
  process_executions: Type.Optional(Type.Array(ProcessExecution)),
  outputs: Type.Optional(Type.Array(ExecutionOutput)),
  logs: Type.Optional(Type.Array(LogEntry)),
  owner: AccessProperties.owner,
  group_owner: AccessProperties.group_owner,
  can_edit: AccessProperties.can_edit,
  can_share: AccessProperties.can_share,
  rerun: Type.Optional(action('Whether the caller can re-run it (POST .../rerun), and why not')),
  resume: Type.Optional(action('Whether the caller can resume it (POST .../resume), and why not')),
});
export type Execution = Static<typeof Execution>;

/** GET /api/executions/ filters. */
export const ExecutionListQuery = Type.Object(
  {
    ...PageQueryProperties,
    status: Type.Optional(ExecutionStatus),
    pipeline: Type.Optional(Type.String({ maxLength: 200 })),
    sample: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type ExecutionListQuery = Static<typeof ExecutionListQuery>;

export const ExecutionPage = Page(Execution);
export type ExecutionPage = Static<typeof ExecutionPage>;

/** GET /api/executions/{id}/logs: entries after the cursor `after`. */
export const LogsQuery = Type.Object(
  {
    after: Type.Integer({ minimum: 0, default: 0 }),
    limit: Type.Integer({ minimum: 1, maximum: 5000, default: 1000 }),
  },
  { additionalProperties: false },
);
export type LogsQuery = Static<typeof LogsQuery>;

/** A page of log entries; `next` is the cursor to ask after, `complete` once the run ended and all is read. */
export const LogsPage = Type.Object({ items: Type.Array(LogEntry), next: Type.Integer(), complete: Type.Boolean() });
export type LogsPage = Static<typeof LogsPage>;

/** `{id}` of the re-run and resume routes (bounded to a safe integer). */
export const ExecutionIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
export type ExecutionIdParams = Static<typeof ExecutionIdParams>;

/** The weblog route's path: the execution and the secret its run was given. */
export const WeblogParams = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  secret: Type.String({ maxLength: 200 }),
});
export type WeblogParams = Static<typeof WeblogParams>;

/** One event of Nextflow's `-with-weblog` (Nextflow's shape, not ours: any object is taken). */
export interface NextflowWeblogEvent {
  runName?: string;
  runId?: string;
  event?: string;
  utcTime?: string;
  trace?: {
    task_id?: number;
    name?: string;
    process?: string;
    status?: string;
    exit?: number;
    '%cpu'?: number;
    peak_rss?: number;
    rss?: number;
  };
  metadata?: { workflow?: { success?: boolean; errorMessage?: string; errorReport?: string } };
}
export const NextflowWeblogEvent = Type.Unsafe<NextflowWeblogEvent>({ type: 'object' });
