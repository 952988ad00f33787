/**
 * Read Alignment on a real SLURM cluster: a single-node cluster from Debian's slurm-wlm and
 * munge started for this test, the service configured as the README's cluster section says
 * (LANEWAY_SNAKEMAKE_EXECUTOR=slurm; the data folder is on a filesystem the node shares, here
 * the same machine), a run whose resources.queue names a partition, and the scheduler's own
 * accounting (slurmdbd on MariaDB, asked with `sacct`) checked for the jobs on that partition
 * with the run's CPUs, memory and time limit; each job's process carries its CPU and memory use
 * as SLURM accounting measured it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { plantedGenome } from '../../helpers/planted-genome';
import { slurmUnavailable, startSlurmCluster, type SlurmCluster } from '../../helpers/slurm-cluster';
import { startKit, type Kit } from './pipeline-kit';
import { sacctBytes, sacctSeconds } from '../../../src/service/engines/snakemake/slurm-jobs';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 90_000 });

const why = slurmUnavailable();

describe.skipIf(why !== null)(`Read Alignment through SLURM${why ? ` (skipped: ${why})` : ''}`, () => {
  let cluster: SlurmCluster | null = null;
  let kit: Kit | null = null;
  const saved = { ...process.env };

  beforeAll(async () => {
    cluster = await startSlurmCluster(['main', 'laneway_bio']);
    Object.assign(process.env, cluster.env, { LANEWAY_SNAKEMAKE_EXECUTOR: 'slurm', LANEWAY_SNAKEMAKE_JOBS: '4' });
    kit = await startKit();
  });
  afterAll(async () => {
    await kit?.stop();
    for (const k of ['SLURM_CONF', 'LANEWAY_SNAKEMAKE_EXECUTOR', 'LANEWAY_SNAKEMAKE_JOBS']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await cluster?.stop();
  });

  it("submits every rule as a SLURM job on the run's partition with its CPUs, memory and time limit", async () => {
    const k = kit!;
    const genome = plantedGenome(41, 6000, 5);
    const reference = await k.upload(k.adminToken, 'cluster-genome.fa', genome.fasta);
    const sample = await k.createSample(
      k.adminToken,
      'Clustered',
      await k.upload(k.adminToken, 'clustered.fastq', genome.reads(400, 'c')),
    );
    const versions = (
      await k.api<Array<{ name: string; versions: Array<{ id: number; version: string }> }>>(
        '/api/pipelines',
        k.adminToken,
      )
    ).body.find((p) => p.name === 'Read Alignment')!.versions;
    const run = await k.run(k.adminToken, versions.find((v) => v.version === '1.2.0')!.id, {
      samples: [sample],
      parameters: { reference },
      resources: { cpus: 1, memory: '1G', queue: 'laneway_bio', time_limit: '30m' },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const done = await k.waitFor(k.adminToken, run.body.id as number, ['completed', 'failed'], 240_000);
    expect(done.status, JSON.stringify((done.logs as unknown[]).slice(-30))).toBe('completed');
    expect((done.outputs as Array<{ filename: string }>).map((o) => o.filename).sort()).toEqual([
      'Clustered.flagstat.txt',
      'Clustered.markdup.txt',
      'Clustered.sorted.bam',
      'Clustered.sorted.bam.bai',
      'multiqc_report.html',
    ]);
    // The scheduler's accounting: one completed job per rule, on the partition the run named.
    const rules = ['align', 'fixmate', 'flagstat', 'index', 'markdup', 'sort'].sort();
    const jobs = cluster!
      .sacct(['JobID', 'JobName', 'State', 'Partition', 'AllocCPUS', 'ReqMem', 'Timelimit'])
      .filter((j) => j.JobName?.startsWith(`laneway-${run.body.id as number}-`));
    expect(jobs.map((j) => j.JobName!.replace(/^laneway-\d+-/, '')).sort()).toEqual(rules);
    for (const j of jobs) {
      expect(j).toMatchObject({ State: 'COMPLETED', Partition: 'laneway_bio', AllocCPUS: '1', Timelimit: '00:30:00' });
      expect(j.ReqMem).toMatch(/^(1G|1024M)n?$/);
    }
    // Each job's process has one log line naming its job, and the scheduler's figures for what
    // it used where jobacct_gather sampled it (every second here: a job of under a second may end
    // before its first sample, and then sacct has no MaxRSS and the process no figures).
    const logs = (
      await k.api<{ items: Array<{ process: string; message: string }> }>(
        `/api/executions/${run.body.id as number}/logs?limit=1000`,
        k.adminToken,
      )
    ).body.items.filter((l) => l.message.startsWith('SLURM job '));
    expect(logs.map((l) => l.process.replace(/ \(.*\)$/, '')).sort()).toEqual(rules);
    const steps = cluster!.sacctSteps(['JobID', 'Elapsed', 'TotalCPU', 'MaxRSS']);
    const processes = done.process_executions as Array<{
      name: string;
      resources: { cpu_percent: number | null; memory_gb: number | null };
    }>;
    let measured = 0;
    for (const l of logs) {
      const id = /^SLURM job (\d+) /.exec(l.message)![1]!;
      expect(jobs.map((j) => j.JobID)).toContain(id);
      const batch = steps.find((s) => s.JobID === `${id}.batch`)!;
      const p = processes.find((x) => x.name === l.process)!;
      if (batch.MaxRSS) {
        measured++;
        expect(l.message).toMatch(
          /^SLURM job \d+ COMPLETED on partition laneway_bio, node \S+: ran \d\d:\d\d:\d\d with 1 CPU\(s\) and (1G|1024M)n? memory allocated; used \S+ CPU time \(\d+\.\d% of its CPUs\) and at most \d+\.\d MB memory \(sacct\)$/,
        );
        expect(p.resources.memory_gb, l.process).toBeCloseTo(sacctBytes(batch.MaxRSS)! / 1024 ** 3, 3);
        expect(p.resources.cpu_percent, l.process).toBeCloseTo(
          (sacctSeconds(batch.TotalCPU!) / sacctSeconds(batch.Elapsed!)) * 100,
          0,
        );
      } else {
        expect(l.message).toMatch(/^SLURM job \d+ COMPLETED on partition laneway_bio, .*no CPU or memory use recorded/);
      }
    }
    // Every job's CPU time is accounted (from the step's rusage, not sampled); MaxRSS is not
    // guaranteed for jobs of about a second (runs here had 4 of 6 sampled, then 0 of 6), so how
    // many were measured is only reported.
    for (const j of jobs)
      expect(sacctSeconds(steps.find((s) => s.JobID === `${j.JobID}.batch`)!.TotalCPU!)).toBeGreaterThan(0);
    process.stdout.write(`SLURM jobs with sampled MaxRSS (figures checked): ${measured} of ${logs.length}\n`);
  });
});
