/**
 * Desktop API payloads for the durable upload queue: jobs (one per file), groups (a sample or
 * lane created once all its files are uploaded), settings and throttled progress.
 */
import { Type, type Static } from 'typebox';
import { closed, nullable } from './payload-types';

export const jobState = Type.Enum([
  'queued',
  'hashing',
  'uploading',
  'waiting',
  'paused',
  'completed',
  'failed',
  'cancelled',
]);
export type JobState = Static<typeof jobState>;

/** Why a job that wants to run is not sending bytes right now. */
export const waitingReason = Type.Enum([
  'file-growing',
  'offline',
  'token-refresh',
  'not-signed-in',
  'bandwidth-schedule',
  'backoff',
  'service-unavailable',
  'concurrency',
]);
export type WaitingReason = Static<typeof waitingReason>;

export const priority = Type.Enum(['high', 'normal', 'low']);
export type Priority = Static<typeof priority>;

/** What a job's file becomes: plain data, a sample's read, or a lane's file. */
export const jobRole = Type.Enum([
  'data',
  'read1',
  'read2',
  'multiplexed',
  'multiplexed-read2',
  'multiplexed-index1',
  'multiplexed-index2',
  'annotation',
]);
export type JobRole = Static<typeof jobRole>;

export const uploadJob = closed({
  id: Type.Integer(),
  profile_id: Type.String(),
  path: Type.String(),
  filename: Type.String(),
  role: jobRole,
  group_id: nullable(Type.Integer()),
  state: jobState,
  priority,
  waiting_reason: nullable(waitingReason),
  bytes_total: Type.Number(),
  bytes_sent: Type.Number(),
  speed_bps: Type.Number(),
  eta_seconds: nullable(Type.Number()),
  attempts: Type.Integer(),
  error: nullable(Type.String()),
  data_id: nullable(Type.Integer()),
  checksum: nullable(Type.String()),
  /** True when the service already held this file (409 DUPLICATE_FILE or the local index). */
  deduplicated: Type.Boolean(),
  created: Type.String(),
  updated: Type.String(),
  /**
   * Display only: this read 2 is queued behind its read 1, which a Flow server needs in first
   * (its data id goes on read 2's chunks). Absent where the queue did not work it out.
   */
  waits_for_read1: Type.Optional(Type.Boolean()),
});
export type UploadJob = Static<typeof uploadJob>;

export const uploadGroup = closed({
  id: Type.Integer(),
  kind: Type.Enum(['sample', 'lane']),
  name: Type.String(),
  state: Type.Enum(['uploading', 'creating', 'created', 'failed', 'cancelled']),
  /** The sample's or lane's id on the service once created. */
  created_id: nullable(Type.Integer()),
  error: nullable(Type.String()),
  /** What happened beyond the state, e.g. linked to an existing sample instead of creating one. */
  note: Type.Optional(nullable(Type.String())),
  job_ids: Type.Array(Type.Integer()),
});
export type UploadGroup = Static<typeof uploadGroup>;

export const overallProgress = closed({
  jobs_active: Type.Integer(),
  jobs_queued: Type.Integer(),
  jobs_failed: Type.Integer(),
  bytes_total: Type.Number(),
  bytes_sent: Type.Number(),
  speed_bps: Type.Number(),
  eta_seconds: nullable(Type.Number()),
  paused: Type.Boolean(),
  waiting_reason: nullable(waitingReason),
});
export type OverallProgress = Static<typeof overallProgress>;

export const jobProgress = closed({
  id: Type.Integer(),
  state: jobState,
  bytes_sent: Type.Number(),
  bytes_total: Type.Number(),
  speed_bps: Type.Number(),
  eta_seconds: nullable(Type.Number()),
  waiting_reason: nullable(waitingReason),
});
export const progressEvent = closed({ jobs: Type.Array(jobProgress), overall: overallProgress });
export type ProgressEvent = Static<typeof progressEvent>;

export const uploadList = closed({
  jobs: Type.Array(uploadJob),
  groups: Type.Array(uploadGroup),
  overall: overallProgress,
});
export type UploadList = Static<typeof uploadList>;

const path = Type.String({ minLength: 1, maxLength: 4096 });

export const enqueueFilesParams = closed({
  paths: Type.Array(path, { maxItems: 10_000 }),
  priority: Type.Optional(priority),
});
export const enqueueSampleParams = closed({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  read1: path,
  read2: Type.Optional(path),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  project: Type.Optional(Type.Integer()),
  priority: Type.Optional(priority),
});
/**
 * A lane: its multiplexed FASTQ (and read 2, index reads) by path, and its sheet as a path or,
 * from the Lane screen, as the .xlsx it built (base64; the core keeps it beside its queue).
 * The demultiplexing fields are the lane upload's own (layout, mismatches, barcode_read).
 */
export const enqueueLaneParams = closed({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  file: path,
  read2: Type.Optional(path),
  index1: Type.Optional(path),
  index2: Type.Optional(path),
  annotation: Type.Optional(path),
  annotation_xlsx: Type.Optional(Type.String({ minLength: 1, maxLength: 28_000_000 })),
  layout: Type.Optional(Type.String({ maxLength: 200 })),
  mismatches: Type.Optional(Type.String({ maxLength: 10 })),
  barcode_read: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
  ignore_warnings: Type.Optional(Type.Boolean()),
  priority: Type.Optional(priority),
});
export const enqueueResult = closed({ jobs: Type.Array(uploadJob), groups: Type.Array(uploadGroup) });
export type EnqueueResult = Static<typeof enqueueResult>;

export const jobIdParams = closed({ id: Type.Integer() });
export const setPriorityParams = closed({ id: Type.Integer(), priority });

/** A bandwidth window: on these weekdays (0 Sunday .. 6 Saturday) between start and end (local HH:MM). */
export const bandwidthWindow = closed({
  days: Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), { maxItems: 7 }),
  start: Type.String({ minLength: 5, maxLength: 5 }),
  end: Type.String({ minLength: 5, maxLength: 5 }),
  limit_mbps: Type.Number({ minimum: 0.1 }),
});
export type BandwidthWindow = Static<typeof bandwidthWindow>;

export const uploadSettings = closed({
  concurrency: Type.Integer({ minimum: 1, maximum: 16 }),
  /** Always-on limit in Mbit/s; null for none. A matching schedule window overrides it. */
  limit_mbps: nullable(Type.Number({ minimum: 0.1 })),
  schedule: Type.Array(bandwidthWindow, { maxItems: 50 }),
});
export type UploadSettings = Static<typeof uploadSettings>;
