/**
 * Runs one of the service's pipeline workers as the engine does: a real child process given a
 * job file, its protocol lines read back from stdout.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeEntry } from '../../src/node/node-entry';
import { parseEngineMessage, type EngineJob, type EngineMessage } from '../../src/service/engines/protocol';

export interface WorkerRun {
  code: number | null;
  /** The protocol lines of stdout, in order (anything else on stdout is dropped). */
  messages: EngineMessage[];
  stderr: string;
}

/** Runs entry `worker` (relative to folder URL `folder`, without extension) on an existing job file. */
export async function runWorkerOnFile(folder: string, worker: string, jobFile: string): Promise<WorkerRun> {
  const cmd = nodeEntry(folder, worker, [jobFile]);
  const child = spawn(cmd.execPath, cmd.args, { env: { ...process.env, ...cmd.env } });
  let out = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const messages = out
    .split('\n')
    .filter(Boolean)
    .map((l) => parseEngineMessage(l))
    .filter((m): m is EngineMessage => m !== null);
  return { code, messages, stderr };
}

/** Writes `job` to a fresh file under `workDir` and runs the worker on it. */
export function runWorkerJob(folder: string, worker: string, workDir: string, job: EngineJob): Promise<WorkerRun> {
  const jobFile = join(workDir, `job-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(jobFile, JSON.stringify(job));
  return runWorkerOnFile(folder, worker, jobFile);
}
