/**
 * Desktop API payloads for the durable upload queue: jobs (one per file), groups (a sample or
 * lane created once all its files are uploaded), settings and throttled progress.
 */
import { s, type Infer } from '../schema';

export const jobState = s.enum([
  'queued',
  'hashing',
  'uploading',
  'waiting',
  'paused',
  'completed',
  'failed',
  'cancelled',
] as const);
export type JobState = Infer<typeof jobState>;

/** Why a job that wants to run is not sending bytes right now. */
export const waitingReason = s.enum([
  'file-growing',
  'offline',
  'token-refresh',
  'not-signed-in',
  'bandwidth-schedule',
  'backoff',
  'service-unavailable',
  'concurrency',
] as const);
export type WaitingReason = Infer<typeof waitingReason>;

export const priority = s.enum(['high', 'normal', 'low'] as const);
export type Priority = Infer<typeof priority>;

/** What a job's file becomes: plain data, a sample's read, or a lane's file. */
export const jobRole = s.enum(['data', 'read1', 'read2', 'multiplexed', 'multiplexed-read2', 'annotation'] as const);
export type JobRole = Infer<typeof jobRole>;

export const uploadJob = s.object({
  id: s.number({ int: true }),
  profile_id: s.string(),
  path: s.string(),
  filename: s.string(),
  role: jobRole,
  group_id: s.nullable(s.number({ int: true })),
  state: jobState,
  priority,
  waiting_reason: s.nullable(waitingReason),
  bytes_total: s.number(),
  bytes_sent: s.number(),
  speed_bps: s.number(),
  eta_seconds: s.nullable(s.number()),
  attempts: s.number({ int: true }),
  error: s.nullable(s.string()),
  data_id: s.nullable(s.number({ int: true })),
  checksum: s.nullable(s.string()),
  /** True when the service already held this file (409 DUPLICATE_FILE or the local index). */
  deduplicated: s.boolean(),
  created: s.string(),
  updated: s.string(),
});
export type UploadJob = Infer<typeof uploadJob>;

export const uploadGroup = s.object({
  id: s.number({ int: true }),
  kind: s.enum(['sample', 'lane'] as const),
  name: s.string(),
  state: s.enum(['uploading', 'creating', 'created', 'failed', 'cancelled'] as const),
  /** The sample's or lane's id on the service once created. */
  created_id: s.nullable(s.number({ int: true })),
  error: s.nullable(s.string()),
  /** What happened beyond the state, e.g. linked to an existing sample instead of creating one. */
  note: s.optional(s.nullable(s.string())),
  job_ids: s.array(s.number({ int: true })),
});
export type UploadGroup = Infer<typeof uploadGroup>;

export const overallProgress = s.object({
  jobs_active: s.number({ int: true }),
  jobs_queued: s.number({ int: true }),
  jobs_failed: s.number({ int: true }),
  bytes_total: s.number(),
  bytes_sent: s.number(),
  speed_bps: s.number(),
  eta_seconds: s.nullable(s.number()),
  paused: s.boolean(),
  waiting_reason: s.nullable(waitingReason),
});
export type OverallProgress = Infer<typeof overallProgress>;

export const jobProgress = s.object({
  id: s.number({ int: true }),
  state: jobState,
  bytes_sent: s.number(),
  bytes_total: s.number(),
  speed_bps: s.number(),
  eta_seconds: s.nullable(s.number()),
  waiting_reason: s.nullable(waitingReason),
});
export const progressEvent = s.object({ jobs: s.array(jobProgress), overall: overallProgress });
export type ProgressEvent = Infer<typeof progressEvent>;

export const uploadList = s.object({
  jobs: s.array(uploadJob),
  groups: s.array(uploadGroup),
  overall: overallProgress,
});
export type UploadList = Infer<typeof uploadList>;

const path = s.string({ min: 1, max: 4096 });

export const enqueueFilesParams = s.object({ paths: s.array(path, { max: 10_000 }), priority: s.optional(priority) });
export const enqueueSampleParams = s.object({
  name: s.string({ min: 1, max: 200 }),
  read1: path,
  read2: s.optional(path),
  metadata: s.optional(s.record(s.unknown())),
  project: s.optional(s.number({ int: true })),
  priority: s.optional(priority),
});
export const enqueueLaneParams = s.object({
  name: s.string({ min: 1, max: 200 }),
  file: path,
  read2: s.optional(path),
  annotation: path,
  ignore_warnings: s.optional(s.boolean()),
  priority: s.optional(priority),
});
export const enqueueResult = s.object({ jobs: s.array(uploadJob), groups: s.array(uploadGroup) });
export type EnqueueResult = Infer<typeof enqueueResult>;

export const jobIdParams = s.object({ id: s.number({ int: true }) });
export const setPriorityParams = s.object({ id: s.number({ int: true }), priority });

/** A bandwidth window: on these weekdays (0 Sunday .. 6 Saturday) between start and end (local HH:MM). */
export const bandwidthWindow = s.object({
  days: s.array(s.number({ int: true, min: 0, max: 6 }), { max: 7 }),
  start: s.string({ min: 5, max: 5 }),
  end: s.string({ min: 5, max: 5 }),
  limit_mbps: s.number({ min: 0.1 }),
});
export type BandwidthWindow = Infer<typeof bandwidthWindow>;

export const uploadSettings = s.object({
  concurrency: s.number({ int: true, min: 1, max: 16 }),
  /** Always-on limit in Mbit/s; null for none. A matching schedule window overrides it. */
  limit_mbps: s.nullable(s.number({ min: 0.1 })),
  schedule: s.array(bandwidthWindow, { max: 50 }),
});
export type UploadSettings = Infer<typeof uploadSettings>;
