/**
 * What the execution runner asks of an engine (built-in worker, Snakemake, Nextflow, a lab's
 * own worker): run one execution's job and report processes, progress, logs and outputs to a
 * sink. Engines start their work as detached process groups so that cancel and time limits
 * can end the whole tree.
 */
import type { WeblogReceivers } from './nextflow/nextflow-weblog';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';
export type ProcessStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface EngineSink {
  /** A process (a step, rule or Nextflow process) changed state. */
  process(name: string, status: ProcessStatus, exitCode?: number): void;
  progress(name: string, progress: number): void;
  log(process: string, level: LogLevel, message: string): void;
  /** An output file (relative to outDir) to register as a data record when the run succeeds. */
  output(path: string, dataType: string, sampleId?: number): void;
  /** Resources an engine measured itself (Nextflow's trace), instead of our /proc sampling. */
  resources(name: string, cpuPercent: number, memoryGb: number): void;
  /** How many processes the run will have, when the engine knows (drives overall progress). */
  expect(total: number): void;
  /** A process group started for this run: sampled for resources and killed on cancel. */
  spawned(pgid: number): void;
}

export interface EngineSample {
  id: number;
  name: string;
  read1: string;
  read2?: string;
  /** The reads' file names as their owner knows them (the paths are checksums). */
  read1_name?: string;
  read2_name?: string;
  /** Alignments from an upstream execution (Read Alignment), for engines that take them. */
  bam?: string;
  metadata: Record<string, unknown>;
}

export interface EngineJobInput {
  executionId: number;
  parameters: Record<string, unknown>;
  samples: EngineSample[];
  /** Files named by `file` parameters, by parameter name (absolute paths). */
  files: Record<string, string>;
  outDir: string;
  workDir: string;
  maxReads?: number;
  cpus: number;
  memoryGb?: number;
  /** Passed through to cluster executors (SLURM partition, Kubernetes namespace...). */
  queue?: string;
  /** The run's time limit, for engines that pass it to a scheduler (SLURM --time). */
  timeLimitSeconds?: number;
  /** Base URL of this service, for engines that call back (Nextflow's weblog). */
  serviceUrl: string;
  /** A per-execution secret authenticating call-backs. */
  callbackSecret: string;
  /** The service's live call-back receivers by secret (Nextflow's weblog). */
  weblogReceivers: WeblogReceivers;
  /** Where conda environments of workflows are created and reused (`--conda-prefix`). */
  condaPrefix?: string;
  /** Continue a failed run in its kept workDir (Snakemake, Nextflow); built-in engines never get it. */
  resume?: boolean;
  signal: AbortSignal;
}

export interface Engine {
  run(job: EngineJobInput, sink: EngineSink): Promise<void>;
}

/** An engine failure with a message meant for the user (the execution's error). */
export class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineError';
  }
}
