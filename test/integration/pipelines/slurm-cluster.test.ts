/**
 * Read Alignment on a real SLURM cluster: a single-node cluster from Debian's slurm-wlm and
 * munge started for this test, the service configured as the README's cluster section says
 * (LANEWAY_SNAKEMAKE_EXECUTOR=slurm; the data folder is on a filesystem the node shares, here
 * the same machine), a run whose resources.queue names a partition, and the scheduler's own
 * record (jobcomp/filetxt: what sacct reports where accounting storage runs) checked for the
 * jobs on that partition with the run's CPUs, memory and time limit.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { plantedGenome } from '../../helpers/planted-genome';
import { slurmUnavailable, startSlurmCluster, type SlurmCluster } from '../../helpers/slurm-cluster';
import { startKit, type Kit } from './pipeline-kit';

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
    // The scheduler's record: one completed job per rule, on the partition the run named.
    const jobs = cluster!.completedJobs().filter((j) => j.Name?.startsWith(`laneway-${run.body.id as number}-`));
    expect(jobs.map((j) => j.Name!.replace(/^laneway-\d+-/, '')).sort()).toEqual(
      ['align', 'fixmate', 'flagstat', 'index', 'markdup', 'sort'].sort(),
    );
    for (const j of jobs) {
      expect(j).toMatchObject({ JobState: 'COMPLETED', Partition: 'laneway_bio', ProcCnt: '1', TimeLimit: '30' });
      expect(j.Tres).toMatch(/(^|,)mem=(1G|1024M)(,|$)/);
    }
    // Each job's process carries what the scheduler still knows about it (scontrol, no
    // accounting storage): its SLURM id, partition, run time and allocation.
    const logs = (
      await k.api<{ items: Array<{ process: string; message: string }> }>(
        `/api/executions/${run.body.id as number}/logs?limit=1000`,
        k.adminToken,
      )
    ).body.items.filter((l) => l.message.startsWith('SLURM job '));
    expect(logs.map((l) => l.process.replace(/ \(.*\)$/, '')).sort()).toEqual(
      ['align', 'fixmate', 'flagstat', 'index', 'markdup', 'sort'].sort(),
    );
    const ids = new Set(jobs.map((j) => j.JobId));
    for (const l of logs) {
      expect(l.message).toMatch(
        /^SLURM job (\d+) COMPLETED on partition laneway_bio, node \S+: ran \d\d:\d\d:\d\d with 1 CPU\(s\) and (1G|1024M) memory allocated \(time limit 00:30:00\); CPU and memory use are not known without SLURM accounting storage$/,
      );
      expect(ids).toContain(/^SLURM job (\d+)/.exec(l.message)![1]);
    }
  });
});
