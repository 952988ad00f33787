/**
 * Helpers shared by the built-in engine processes (quality control, trimming): reading and
 * checking the job file, throttled progress, and output names that are safe on every OS.
 */
import { readFileSync } from 'node:fs';
import { emit, type EngineJob } from '../protocol';

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
