/**
 * Desktop API payloads for watched instrument folders, the runs detected in them and drop
 * ingest proposals.
 */
import { Type, type Static } from 'typebox';
import { closed, nullable } from './payload-types';
import { priority, uploadGroup, uploadJob } from './upload-schemas';

export const instrumentKind = Type.Enum(['illumina', 'nanopore', 'element', 'generic']);
export type InstrumentKind = Static<typeof instrumentKind>;

/** A pipeline a watched folder launches on the samples of each registered run. */
export const watcherLaunch = closed({
  /** The pipeline's name (its latest version) or a pipeline version id. */
  pipeline: Type.String({ minLength: 1, maxLength: 200 }),
  parameters: Type.Record(Type.String(), Type.Unknown()),
});
export type WatcherLaunch = Static<typeof watcherLaunch>;

export const watcher = closed({
  id: Type.Integer(),
  path: Type.String(),
  kind: instrumentKind,
  auto_upload: Type.Boolean(),
  /** Poll instead of native events (network shares: SMB, NFS). */
  polling: Type.Boolean(),
  /** Generic folders: a run is ready when nothing changed for this long. */
  settle_seconds: Type.Integer(),
  enabled: Type.Boolean(),
  status: Type.Enum(['watching', 'stopped', 'error']),
  error: nullable(Type.String()),
  last_scan: nullable(Type.String()),
  /**
   * Folders directly in the watched folder that hold no run of its instrument (a copy of FASTQs
   * without the run's files, say), with what a run of this instrument would have; null when
   * there are none. They are left alone: the technician learns why nothing happens to them.
   */
  not_runs: nullable(closed({ names: Type.Array(Type.String()), reason: Type.String() })),
  /** Metadata given to every sample created from this folder's runs (organism, category ...). */
  sample_metadata: Type.Record(Type.String(), Type.Unknown()),
  /** The pipeline launched on each registered run's samples; null for none. */
  launch: nullable(watcherLaunch),
});
export type Watcher = Static<typeof watcher>;

export const addWatcherParams = closed({
  path: Type.String({ minLength: 1, maxLength: 4096 }),
  kind: instrumentKind,
  auto_upload: Type.Boolean(),
  polling: Type.Optional(Type.Boolean()),
  settle_seconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 86_400 })),
  sample_metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  launch: Type.Optional(nullable(watcherLaunch)),
});
export const updateWatcherParams = closed({
  id: Type.Integer(),
  kind: Type.Optional(instrumentKind),
  auto_upload: Type.Optional(Type.Boolean()),
  polling: Type.Optional(Type.Boolean()),
  settle_seconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 86_400 })),
  enabled: Type.Optional(Type.Boolean()),
  sample_metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  launch: Type.Optional(nullable(watcherLaunch)),
});
export const watcherList = closed({ watchers: Type.Array(watcher) });

export const watcherEvent = closed({
  watcher_id: Type.Integer(),
  type: Type.Enum(['scan', 'run-detected', 'error', 'recovered']),
  path: nullable(Type.String()),
  message: Type.String(),
  at: Type.String(),
});
export type WatcherEvent = Static<typeof watcherEvent>;

export const runState = Type.Enum([
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
]);
export type RunState = Static<typeof runState>;

export const ingestWarningCode = Type.Enum([
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
  'superseded-analysis',
  'read2-copy',
]);
export const ingestWarning = closed({ code: ingestWarningCode, path: nullable(Type.String()), message: Type.String() });
export type IngestWarning = Static<typeof ingestWarning>;

export const proposedSample = closed({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  read1: Type.String(),
  read2: nullable(Type.String()),
  /** Illumina lane number when the names carry one (`_L001_`). */
  lane: nullable(Type.Integer()),
  project: nullable(Type.String()),
  bytes: Type.Number(),
  /** Sample metadata for the service (organism and category are required there). */
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /**
   * The files joined into read 1 (read 2), in order, when there are several: a sample's lanes
   * in lane order (gzip members concatenate into a valid .gz), or a Nanopore barcode's batches.
   */
  read1_parts: Type.Optional(Type.Array(Type.String())),
  read2_parts: Type.Optional(Type.Array(Type.String())),
  /** Left out of the upload by the user (the row stays visible so it can be put back). */
  excluded: Type.Optional(Type.Boolean()),
  /** What the service already holds for this sample, found before anything is uploaded. */
  existing: Type.Optional(
    nullable(
      closed({
        /** The sample on the service these reads already belong to, or one of the same name. */
        sample_id: nullable(Type.Integer()),
        sample_name: nullable(Type.String()),
        /** True when the reads themselves are on the service (not only the name). */
        reads_on_service: Type.Boolean(),
        message: Type.String(),
      }),
    ),
  ),
});
export type ProposedSample = Static<typeof proposedSample>;

export const proposedLane = closed({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  file: Type.String(),
  read2: nullable(Type.String()),
  annotation: Type.String(),
});
export type ProposedLane = Static<typeof proposedLane>;

/** What the instrument wrote about the run: demultiplexing reports, adapters, manifest. */
export const runReport = closed({
  /** BCL Convert's Undetermined reads: kept with the run, never proposed as a sample. */
  undetermined: nullable(
    closed({
      files: Type.Array(Type.String()),
      bytes: Type.Number(),
      reads: nullable(Type.Number()),
      /** Of all reads in Demultiplex_Stats.csv (0..1), when it is there. */
      fraction: nullable(Type.Number()),
    }),
  ),
  demux_stats: Type.Array(
    closed({
      lane: nullable(Type.Number()),
      sample: Type.String(),
      project: nullable(Type.String()),
      index: nullable(Type.String()),
      reads: Type.Number(),
    }),
  ),
  top_unknown: Type.Array(closed({ lane: nullable(Type.Number()), index: Type.String(), reads: Type.Number() })),
  /** Sample sheet [Settings] AdapterRead1/AdapterRead2, given to Adapter Trimming. */
  adapters: nullable(closed({ read1: nullable(Type.String()), read2: nullable(Type.String()) })),
  /** Element AVITI RunManifest samples. */
  manifest: nullable(
    Type.Array(
      closed({
        name: Type.String(),
        index1: nullable(Type.String()),
        index2: nullable(Type.String()),
        lanes: Type.Array(Type.Integer()),
        project: nullable(Type.String()),
      }),
    ),
  ),
  /** The instrument files these figures come from (relative to the run folder). */
  sources: Type.Array(Type.String()),
});
export type RunReport = Static<typeof runReport>;

export const proposal = closed({
  kind: Type.Enum(['samples', 'lane', 'data', 'empty']),
  samples: Type.Array(proposedSample),
  lane: nullable(proposedLane),
  /** FASTQ files that are uploaded as plain data (no pairing or sample). */
  loose: Type.Array(Type.String()),
  /** Files that will not be uploaded (see warnings). */
  ignored: Type.Array(Type.String()),
  warnings: Type.Array(ingestWarning),
  total_bytes: Type.Number(),
  /** The run folder the drop came from, when it was one. */
  run: nullable(closed({ kind: instrumentKind, path: Type.String(), name: Type.String() })),
  report: Type.Optional(nullable(runReport)),
});
export type Proposal = Static<typeof proposal>;

export const proposeParams = closed({
  paths: Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: 10_000 }),
  /** Join MinKNOW's fastq_fail batches after the pass batches (left out by default). */
  include_failed: Type.Optional(Type.Boolean()),
});
export const confirmParams = closed({
  kind: Type.Enum(['samples', 'lane', 'data']),
  samples: Type.Array(proposedSample),
  lane: nullable(proposedLane),
  loose: Type.Array(Type.String()),
  priority: Type.Optional(priority),
});
export type ConfirmParams = Static<typeof confirmParams>;
export const confirmResult = closed({ jobs: Type.Array(uploadJob), groups: Type.Array(uploadGroup) });

export const runTimelineEntry = closed({ state: runState, at: Type.String(), note: nullable(Type.String()) });
export const run = closed({
  id: Type.Integer(),
  watcher_id: Type.Integer(),
  path: Type.String(),
  name: Type.String(),
  kind: instrumentKind,
  state: runState,
  timeline: Type.Array(runTimelineEntry),
  error: nullable(Type.String()),
  proposal: nullable(proposal),
  group_ids: Type.Array(Type.Integer()),
  job_ids: Type.Array(Type.Integer()),
  /** The execution launched on the run's samples (state `launched`). */
  execution_id: nullable(Type.Integer()),
  updated: Type.String(),
});
export type Run = Static<typeof run>;
export const runList = closed({ runs: Type.Array(run) });
export const runListParams = closed({ watcher_id: Type.Optional(Type.Integer()) });
