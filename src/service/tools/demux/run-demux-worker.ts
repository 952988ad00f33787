/**
 * Runs the demultiplexing worker as a child process (via nodeEntry, so it works from source,
 * from the bundle and inside Electron) and resolves with its report. Lanes call this; the
 * execution engine starts the same worker through its own runner.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { nodeEntry } from '../../../node/node-entry';
import { parentWatchEnv } from '../../../node/parent-watch';
import { parseEngineMessage, type EngineMessage } from '../../engines/protocol';
import type { DemuxJob } from './demux-job';
import { REPORT_FILE, type DemuxResult } from './demultiplexer';

/** A failed demultiplexing run: the worker's error lines are the message. */
export class DemuxFailedError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
    this.name = 'DemuxFailedError';
  }
}

export interface RunDemuxOptions {
  /** Where the job file goes; default `outDir/.demux-job.json`. */
  jobFile?: string;
  /** Aborting sends SIGTERM; the worker stops at its next check and the promise rejects. */
  signal?: AbortSignal;
}

/** Spawns the worker for a job, forwards its protocol messages, resolves with the report. */
export async function runDemuxWorker(
  job: DemuxJob,
  onMessage: (message: EngineMessage) => void,
  options: RunDemuxOptions = {},
): Promise<DemuxResult> {
  mkdirSync(job.outDir, { recursive: true });
  const jobFile = options.jobFile ?? join(job.outDir, '.demux-job.json');
  writeFileSync(jobFile, JSON.stringify(job));
  const cmd = nodeEntry(import.meta.url, './demux-worker', [jobFile]);
  const child = spawn(cmd.execPath, cmd.args, {
    env: { ...process.env, ...cmd.env, ...parentWatchEnv() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  const onAbort = () => child.kill('SIGTERM');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
    const msg = parseEngineMessage(line);
    if (!msg) return;
    if (msg.type === 'log' && msg.level === 'ERROR') errors.push(msg.message);
    onMessage(msg);
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-8192);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c));
  });
  options.signal?.removeEventListener('abort', onAbort);
  if (options.signal?.aborted) throw new DemuxFailedError('Demultiplexing was cancelled', code);
  if (code !== 0) {
    const why = [...errors, stderr.trim()].filter(Boolean).join('\n') || `exit code ${code}`;
    throw new DemuxFailedError(`Demultiplexing failed: ${why}`, code);
  }
  return JSON.parse(readFileSync(join(job.outDir, REPORT_FILE), 'utf8')) as DemuxResult;
}
