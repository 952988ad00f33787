/**
 * Desktop API payloads for watched instrument folders, the runs detected in them and drop
 * ingest proposals.
 */
import { s, type Infer } from '../schema';
import { priority, uploadGroup, uploadJob } from './upload-schemas';

export const instrumentKind = s.enum(['illumina', 'nanopore', 'element', 'generic'] as const);
export type InstrumentKind = Infer<typeof instrumentKind>;

/** A pipeline a watched folder launches on the samples of each registered run. */
export const watcherLaunch = s.object({
  /** The pipeline's name (its latest version) or a pipeline version id. */
  pipeline: s.string({ min: 1, max: 200 }),
  parameters: s.record(s.unknown()),
});
export type WatcherLaunch = Infer<typeof watcherLaunch>;

export const watcher = s.object({
  id: s.number({ int: true }),
  path: s.string(),
  kind: instrumentKind,
  auto_upload: s.boolean(),
  /** Poll instead of native events (network shares: SMB, NFS). */
  polling: s.boolean(),
  /** Generic folders: a run is ready when nothing changed for this long. */
  settle_seconds: s.number({ int: true }),
  enabled: s.boolean(),
  status: s.enum(['watching', 'stopped', 'error'] as const),
  error: s.nullable(s.string()),
  last_scan: s.nullable(s.string()),
  /** Metadata given to every sample created from this folder's runs (organism, category ...). */
  sample_metadata: s.record(s.unknown()),
  /** The pipeline launched on each registered run's samples; null for none. */
  launch: s.nullable(watcherLaunch),
});
export type Watcher = Infer<typeof watcher>;

export const addWatcherParams = s.object({
  path: s.string({ min: 1, max: 4096 }),
  kind: instrumentKind,
  auto_upload: s.boolean(),
  polling: s.optional(s.boolean()),
  settle_seconds: s.optional(s.number({ int: true, min: 5, max: 86_400 })),
  sample_metadata: s.optional(s.record(s.unknown())),
  launch: s.optional(s.nullable(watcherLaunch)),
});
export const updateWatcherParams = s.object({
  id: s.number({ int: true }),
  kind: s.optional(instrumentKind),
  auto_upload: s.optional(s.boolean()),
  polling: s.optional(s.boolean()),
  settle_seconds: s.optional(s.number({ int: true, min: 5, max: 86_400 })),
  enabled: s.optional(s.boolean()),
  sample_metadata: s.optional(s.record(s.unknown())),
  launch: s.optional(s.nullable(watcherLaunch)),
});
export const watcherList = s.object({ watchers: s.array(watcher) });

export const watcherEvent = s.object({
  watcher_id: s.number({ int: true }),
  type: s.enum(['scan', 'run-detected', 'error', 'recovered'] as const),
  path: s.nullable(s.string()),
  message: s.string(),
  at: s.string(),
});
export type WatcherEvent = Infer<typeof watcherEvent>;

export const runState = s.enum([
  'detected',
  'sequencing',
  'copying',
  'ready',
  'uploading',
  'verified',
  'registered',
  'launched',
  'failed',
  'stale',
] as const);
export type RunState = Infer<typeof runState>;

export const ingestWarningCode = s.enum([
  'unpaired-read',
  'not-fastq',
  'too-large',
  'fastq-ora',
  'bam',
  'duplicate-name',
  'unreadable',
  'empty',
  'sample-sheet',
  'missing-metadata',
  'undetermined',
  'existing-sample',
  'existing-file',
  'unreadable-report',
] as const);
export const ingestWarning = s.object({ code: ingestWarningCode, path: s.nullable(s.string()), message: s.string() });
export type IngestWarning = Infer<typeof ingestWarning>;

export const proposedSample = s.object({
  name: s.string({ min: 1, max: 200 }),
  read1: s.string(),
  read2: s.nullable(s.string()),
  /** Illumina lane number when the names carry one (`_L001_`). */
  lane: s.nullable(s.number({ int: true })),
  project: s.nullable(s.string()),
  bytes: s.number(),
  /** Sample metadata for the service (organism and category are required there). */
  metadata: s.optional(s.record(s.unknown())),
  /**
   * The files joined into read 1 (read 2), in order, when there are several: a sample's lanes
   * in lane order (gzip members concatenate into a valid .gz), or a Nanopore barcode's batches.
   */
  read1_parts: s.optional(s.array(s.string())),
  read2_parts: s.optional(s.array(s.string())),
  /** Left out of the upload by the user (the row stays visible so it can be put back). */
  excluded: s.optional(s.boolean()),
  /** What the service already holds for this sample, found before anything is uploaded. */
  existing: s.optional(
    s.nullable(
      s.object({
        /** The sample on the service these reads already belong to, or one of the same name. */
        sample_id: s.nullable(s.number({ int: true })),
        sample_name: s.nullable(s.string()),
        /** True when the reads themselves are on the service (not only the name). */
        reads_on_service: s.boolean(),
        message: s.string(),
      }),
    ),
  ),
});
export type ProposedSample = Infer<typeof proposedSample>;

export const proposedLane = s.object({
  name: s.string({ min: 1, max: 200 }),
  file: s.string(),
  read2: s.nullable(s.string()),
  annotation: s.string(),
});
export type ProposedLane = Infer<typeof proposedLane>;

/** What the instrument wrote about the run: demultiplexing reports, adapters, manifest. */
export const runReport = s.object({
  /** BCL Convert's Undetermined reads: kept with the run, never proposed as a sample. */
  undetermined: s.nullable(
    s.object({
      files: s.array(s.string()),
      bytes: s.number(),
      reads: s.nullable(s.number()),
      /** Of all reads in Demultiplex_Stats.csv (0..1), when it is there. */
      fraction: s.nullable(s.number()),
    }),
  ),
  demux_stats: s.array(
    s.object({
      lane: s.nullable(s.number()),
      sample: s.string(),
      project: s.nullable(s.string()),
      index: s.nullable(s.string()),
      reads: s.number(),
    }),
  ),
  top_unknown: s.array(s.object({ lane: s.nullable(s.number()), index: s.string(), reads: s.number() })),
  /** Sample sheet [Settings] AdapterRead1/AdapterRead2, given to Adapter Trimming. */
  adapters: s.nullable(s.object({ read1: s.nullable(s.string()), read2: s.nullable(s.string()) })),
  /** Element AVITI RunManifest samples. */
  manifest: s.nullable(
    s.array(
      s.object({
        name: s.string(),
        index1: s.nullable(s.string()),
        index2: s.nullable(s.string()),
        lanes: s.array(s.number({ int: true })),
        project: s.nullable(s.string()),
      }),
    ),
  ),
  /** The instrument files these figures come from (relative to the run folder). */
  sources: s.array(s.string()),
});
export type RunReport = Infer<typeof runReport>;

export const proposal = s.object({
  kind: s.enum(['samples', 'lane', 'data', 'empty'] as const),
  samples: s.array(proposedSample),
  lane: s.nullable(proposedLane),
  /** FASTQ files that are uploaded as plain data (no pairing or sample). */
  loose: s.array(s.string()),
  /** Files that will not be uploaded (see warnings). */
  ignored: s.array(s.string()),
  warnings: s.array(ingestWarning),
  total_bytes: s.number(),
  /** The run folder the drop came from, when it was one. */
  run: s.nullable(s.object({ kind: instrumentKind, path: s.string(), name: s.string() })),
  report: s.optional(s.nullable(runReport)),
});
export type Proposal = Infer<typeof proposal>;

export const proposeParams = s.object({ paths: s.array(s.string({ min: 1, max: 4096 }), { max: 10_000 }) });
export const confirmParams = s.object({
  kind: s.enum(['samples', 'lane', 'data'] as const),
  samples: s.array(proposedSample),
  lane: s.nullable(proposedLane),
  loose: s.array(s.string()),
  priority: s.optional(priority),
});
export type ConfirmParams = Infer<typeof confirmParams>;
export const confirmResult = s.object({ jobs: s.array(uploadJob), groups: s.array(uploadGroup) });

export const runTimelineEntry = s.object({ state: runState, at: s.string(), note: s.nullable(s.string()) });
export const run = s.object({
  id: s.number({ int: true }),
  watcher_id: s.number({ int: true }),
  path: s.string(),
  name: s.string(),
  kind: instrumentKind,
  state: runState,
  timeline: s.array(runTimelineEntry),
  error: s.nullable(s.string()),
  proposal: s.nullable(proposal),
  group_ids: s.array(s.number({ int: true })),
  job_ids: s.array(s.number({ int: true })),
  /** The execution launched on the run's samples (state `launched`). */
  execution_id: s.nullable(s.number({ int: true })),
  updated: s.string(),
});
export type Run = Infer<typeof run>;
export const runList = s.object({ runs: s.array(run) });
export const runListParams = s.object({ watcher_id: s.optional(s.number({ int: true })) });
