/**
 * The protocol between the execution engine and a built-in pipeline process (quality control,
 * trimming, demultiplexing). The engine starts the process with one argument, the path of a
 * job file (JSON, `EngineJob`), and reads one JSON `EngineMessage` per line on its stdout.
 * Anything on stderr is kept as ERROR-level log lines. Exit code 0 means success.
 */
import type { EngineSample } from './engine';

/** What a built-in pipeline process is asked to do. */
export interface EngineJob {
  /** Pipeline parameters after validation and defaults, keyed by parameter name. */
  parameters: Record<string, unknown>;
  /** Input files: one entry per sample, each with its reads (absolute paths, read-only). */
  samples: EngineSample[];
  /** Where outputs go; the engine registers files reported by `output` messages. */
  outDir: string;
  /** A small subsample run: process at most this many reads per input (test_mode). */
  maxReads?: number;
  /** CPUs granted by the execution queue. */
  cpus: number;
}

export type EngineMessage =
  /** A process (a step of the pipeline, shown as a process execution) changed state. */
  | { type: 'process'; process: string; status: 'running' | 'completed' | 'failed'; exit_code?: number }
  /** Progress of one process, 0-100. */
  | { type: 'progress'; process: string; progress: number }
  /** A log line. */
  | { type: 'log'; process: string; level: 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR'; message: string }
  /** An output file, path relative to outDir; registered as a data record of the execution. */
  | { type: 'output'; path: string; data_type: string; sample_id?: number }
  /**
   * The process's own resource use for one step, sent before the step's final `process`
   * message (self-usage.ts): CPU seconds (user + system, all threads) over the step's wall
   * seconds, and the worker's peak resident memory. Becomes the step's cpu_percent and
   * memory_gb, so steps shorter than the sampling interval have figures too.
   */
  | { type: 'usage'; process: string; cpu_seconds: number; wall_seconds: number; max_rss_bytes: number };

/** Writes one protocol message to stdout (for engine processes). */
export function emit(message: EngineMessage): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** Parses one stdout line; null when it is not a protocol message. */
export function parseEngineMessage(line: string): EngineMessage | null {
  try {
    const msg = JSON.parse(line) as EngineMessage;
    if (!msg || typeof msg !== 'object' || typeof msg.type !== 'string') return null;
    if (!['process', 'progress', 'log', 'output', 'usage'].includes(msg.type)) return null;
    if (msg.type === 'usage') {
      const finite = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0;
      if (typeof msg.process !== 'string' || !finite(msg.cpu_seconds) || !finite(msg.wall_seconds)) return null;
      if (!finite(msg.max_rss_bytes)) return null;
    }
    return msg;
  } catch {
    return null;
  }
}
