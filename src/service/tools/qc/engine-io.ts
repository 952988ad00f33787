/**
 * Helpers shared by the built-in engine processes (quality control, trimming): reading and
 * checking the job file, throttled progress, and output names that are safe on every OS.
 */
import { readFileSync } from 'node:fs';
import { emit, type EngineJob } from '../../engines/protocol';
import { startUsage, usageMessage } from '../../engines/self-usage';
import { watchParent } from '../../../node/parent-watch';

/** Reads and checks the job file named by argv[2]. */
export function readJob(argv: string[]): EngineJob {
  const path = argv[2];
  if (!path) throw new Error('usage: <engine> JOB_FILE');
  const job = JSON.parse(readFileSync(path, 'utf8')) as EngineJob;
  if (!job || typeof job !== 'object' || !Array.isArray(job.samples) || typeof job.outDir !== 'string') {
    throw new Error(`${path}: not an engine job (samples and outDir are required)`);
  }
  job.parameters ??= {};
  job.cpus = Math.max(1, Math.floor(Number(job.cpus) || 1));
  for (const s of job.samples) {
    if (typeof s.read1 !== 'string' || !s.name) throw new Error(`${path}: sample ${s.id} lacks a name or read1`);
  }
  return job;
}

/** Emits progress for one process at most once per whole percent, always ending at 100. */
export function progressReporter(processName: string): (percent: number) => void {
  let last = -1;
  return (percent) => {
    const p = Math.max(0, Math.min(100, Math.floor(percent)));
    if (p <= last) return;
    last = p;
    emit({ type: 'progress', process: processName, progress: p });
  };
}

/** A file-name-safe version of a sample name. */
export function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'sample';
}

/**
 * Runs `work` as one process execution `PREFIX:SAMPLE` per sample of the job: running, then
 * its own resource use (self-usage.ts) and completed, or failed with an ERROR log while the
 * other samples still run. Resolves with the
 * worker's exit code: 1 when any sample failed.
 */
export async function forEachSample(
  job: EngineJob,
  prefix: string,
  work: (sample: EngineJob['samples'][number], name: string, progress: (percent: number) => void) => Promise<void>,
): Promise<number> {
  let failures = 0;
  for (const sample of job.samples) {
    const name = `${prefix}:${sample.name}`;
    const progress = progressReporter(name);
    emit({ type: 'process', process: name, status: 'running' });
    const meter = startUsage();
    try {
      await work(sample, name, progress);
      progress(100);
      emit(usageMessage(name, meter));
      emit({ type: 'process', process: name, status: 'completed', exit_code: 0 });
    } catch (err) {
      failures++;
      emit({ type: 'log', process: name, level: 'ERROR', message: (err as Error).message });
      emit(usageMessage(name, meter));
      emit({ type: 'process', process: name, status: 'failed', exit_code: 1 });
    }
  }
  return failures ? 1 : 0;
}

/** Runs a worker's main and sets the exit code; a failure outside any sample goes to stderr. */
export function runWorker(label: string, main: () => Promise<number>): void {
  // A service killed with SIGKILL cannot stop its workers: they stop themselves.
  watchParent((reason) => {
    process.stderr.write(`${label}: ${reason}; stopping\n`);
    process.exit(1);
  });
  main().then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      process.stderr.write(`${label}: ${(err as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
