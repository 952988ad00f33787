/**
 * What the scheduler can say about a run's SLURM jobs without accounting storage. Snakemake
 * names each job's SLURM id when it submits it; once the run has ended, `scontrol -o show job
 * ID` still knows a finished job for MinJobAge (300 s by default): its state, partition, node,
 * run time and the CPUs and memory it was given. How much CPU and memory the job actually used
 * is only known to SLURM's accounting (sacct, with slurmdbd or jobacct_gather and storage),
 * which the test cluster does not run; so those figures stay empty, and each job gets one log
 * line with what is known.
 */
import { execFile } from 'node:child_process';

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
