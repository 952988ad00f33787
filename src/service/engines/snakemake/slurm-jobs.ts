/**
 * What the scheduler says about a run's SLURM jobs. Snakemake names each job's SLURM id when it
 * submits it; once the run has ended we ask SLURM's accounting (`sacct`, where the site runs
 * slurmdbd) for each job's state, partition, node, run time and what it used: TotalCPU over
 * Elapsed x AllocCPUS is the job's cpu_percent (per allocated CPU, as a share of one core times
 * the CPUs, like /proc sampling's figure) and the largest step MaxRSS its memory_gb. The job runs
 * on another machine's processes, so the service's own /proc sampling never sees it. Without
 * accounting storage, `scontrol -o show job ID` still knows a finished job for MinJobAge (300 s
 * by default): its allocation and run time, not its use, so the figures stay empty and the log
 * line says so.
 */
import { execFile } from 'node:child_process';

/** One job's figures from sacct: the allocation line plus the largest MaxRSS of its steps. */
export interface SacctJob {
  id: string;
  state: string;
  partition: string;
  nodes: string;
  elapsed: string;
  elapsedSeconds: number;
  totalCpu: string;
  cpuSeconds: number;
  allocCpus: number;
  reqMem: string;
  maxRssBytes: number | null;
  /** Whether the batch step's record is in (it carries the job's measured use). */
  batchStep: boolean;
  /** TotalCPU / (Elapsed x AllocCPUS) x 100; null when the job ran for no measurable time. */
  cpuPercent: number | null;
  memoryGb: number | null;
}

/** The sacct fields we ask for, in this order (parseSacct reads them by position). */
export const SACCT_FIELDS = [
  'JobID',
  'State',
  'Partition',
  'NodeList',
  'Elapsed',
  'TotalCPU',
  'MaxRSS',
  'AllocCPUS',
  'ReqMem',
];

/** Seconds in sacct's [DD-][HH:]MM:SS[.mmm] durations (Elapsed, TotalCPU); NaN when unreadable. */
export function sacctSeconds(text: string): number {
  const m = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return Number.NaN;
  return Number(m[1] ?? 0) * 86_400 + Number(m[2] ?? 0) * 3600 + Number(m[3]) * 60 + Number(m[4]);
}

/** Bytes in a sacct size (MaxRSS "123456K", "1.50M", "0"); null when empty. Units are 1024-based. */
export function sacctBytes(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([KMGTP]?)$/.exec(text.trim());
  if (!m) return null;
  const power = m[2] ? 'KMGTP'.indexOf(m[2]) + 1 : 0;
  return Math.round(Number(m[1]) * 1024 ** power);
}

/** `sacct -j ID --parsable2 --noheader --format=SACCT_FIELDS` output for job `id`, or null without its line. */
export function parseSacct(id: string, stdout: string): SacctJob | null {
  const rows = stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.split('|'));
  const job = rows.find((r) => r[0] === id);
  if (!job) return null;
  const [, state = '', partition = '', nodes = '', elapsed = '', totalCpu = '', , alloc = '', reqMem = ''] = job;
  const steps = rows.filter((r) => r[0]!.startsWith(`${id}.`));
  const rss = [job, ...steps].map((r) => sacctBytes(r[6] ?? '')).filter((b): b is number => b !== null);
  const maxRssBytes = rss.length ? Math.max(...rss) : null;
  const elapsedSeconds = sacctSeconds(elapsed);
  const cpuSeconds = sacctSeconds(totalCpu);
  const allocCpus = Number(alloc) || 1;
  const cpuPercent =
    Number.isFinite(cpuSeconds) && elapsedSeconds > 0 ? (cpuSeconds / (elapsedSeconds * allocCpus)) * 100 : null;
  // Without a step's sample (jobacct_gather off) MaxRSS is empty: no figure rather than zero.
  const measured = steps.some((r) => sacctBytes(r[6] ?? '') !== null);
  return {
    id,
    state: state.split(' ')[0]!,
    partition,
    nodes,
    elapsed,
    elapsedSeconds,
    totalCpu,
    cpuSeconds,
    allocCpus,
    reqMem,
    maxRssBytes,
    batchStep: steps.some((r) => r[0] === `${id}.batch`),
    cpuPercent: measured ? cpuPercent : null,
    memoryGb: measured && maxRssBytes !== null ? maxRssBytes / 1024 ** 3 : null,
  };
}

const FINAL = /^(COMPLETED|FAILED|CANCELLED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE)/;

function sacctOnce(id: string): Promise<{ answered: boolean; job: SacctJob | null }> {
  return new Promise((resolve) => {
    execFile(
      'sacct',
      ['-j', id, '--parsable2', '--noheader', `--format=${SACCT_FIELDS.join(',')}`],
      { timeout: 10_000 },
      // sacct exits non-zero where the site has no accounting storage (or no sacct at all).
      (err, stdout) =>
        resolve(err ? { answered: false, job: null } : { answered: true, job: parseSacct(id, String(stdout)) }),
    );
  });
}

/**
 * The accounting record of a finished job, or null where sacct does not answer. slurmctld hands
 * a job's end to slurmdbd a moment after the job ends, so a record not yet final (or without its
 * batch step) is asked again for a few seconds.
 */
export async function sacctJob(id: string, waitMs = 10_000): Promise<SacctJob | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { answered, job } = await sacctOnce(id);
    if (!answered) return null;
    const settled = job && FINAL.test(job.state) && job.batchStep;
    if (settled || Date.now() > deadline) return job;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** One log line with what SLURM accounting reports about a job. */
export function describeSacctJob(j: SacctJob): string {
  const use =
    j.cpuPercent !== null && j.memoryGb !== null
      ? `used ${j.totalCpu} CPU time (${j.cpuPercent.toFixed(1)}% of its CPUs) and at most ${(j.memoryGb * 1024).toFixed(1)} MB memory`
      : // jobacct_gather samples every JobAcctGatherFrequency; a job shorter than that has no sample.
        'no CPU or memory use recorded (jobacct_gather off, or the job ended before its first sample)';
  return (
    `SLURM job ${j.id} ${j.state} on partition ${j.partition || '?'}, node ${j.nodes || '?'}: ` +
    `ran ${j.elapsed} with ${j.allocCpus} CPU(s)${j.reqMem ? ` and ${j.reqMem} memory` : ''} allocated; ${use} (sacct)`
  );
}

/** The SLURM job id Snakemake reported when it submitted job `jobid`, from one info message. */
export function submittedJob(message: string): { jobid: number; slurmJob: string } | null {
  // Snakemake 7's --cluster: "Submitted job 3 with external jobid '1234'." (1234 may carry ";cluster").
  const v7 = /Submitted (?:group )?job (\d+) with external jobid '(\d+)(?:;[^']*)?'/.exec(message);
  if (v7) return { jobid: Number(v7[1]), slurmJob: v7[2]! };
  // snakemake-executor-plugin-slurm (Snakemake 8+): "Job 3 has been submitted with SLURM jobid 1234 (log: ...)."
  const v8 = /Job (\d+) has been submitted with SLURM jobid (\d+)/.exec(message);
  if (v8) return { jobid: Number(v8[1]), slurmJob: v8[2]! };
  return null;
}

/** `scontrol -o show job` output (Key=Value pairs on one line) as a record. */
export function parseScontrolJob(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const token of line.trim().split(/\s+/)) {
    const at = token.indexOf('=');
    if (at > 0) out[token.slice(0, at)] = token.slice(at + 1);
  }
  return out;
}

/** The scheduler's record of one job, or null when it no longer knows it (or has no scontrol). */
export function slurmJobRecord(id: string): Promise<Record<string, string> | null> {
  return new Promise((resolve) => {
    execFile('scontrol', ['-o', 'show', 'job', id], { timeout: 10_000 }, (err, stdout) => {
      const record = err ? null : parseScontrolJob(String(stdout));
      resolve(record && record.JobId === id ? record : null);
    });
  });
}

/** One log line with what the scheduler reports about a job. */
export function describeSlurmJob(id: string, r: Record<string, string> | null): string {
  if (!r) return `SLURM job ${id}: the scheduler no longer knows it (no accounting storage to ask instead)`;
  const tres = r.AllocTRES || r.ReqTRES || r.TRES || '';
  const mem = /(?:^|,)mem=([^,]+)/.exec(tres)?.[1] ?? r.MinMemoryNode ?? r.MinMemoryCPU;
  return (
    `SLURM job ${id} ${r.JobState ?? ''} on partition ${r.Partition ?? '?'}, node ${r.NodeList ?? r.BatchHost ?? '?'}: ` +
    `ran ${r.RunTime ?? '?'} with ${r.NumCPUs ?? '?'} CPU(s)${mem ? ` and ${mem} memory` : ''} allocated` +
    ` (time limit ${r.TimeLimit ?? '?'}); CPU and memory use are not known without SLURM accounting storage`
  );
}
