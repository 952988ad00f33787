/**
 * Reading what SLURM says about a run's jobs: Snakemake's submission messages (7's --cluster,
 * 8's SLURM executor plugin), `sacct` accounting lines and `scontrol -o show job` records. The real cluster run is in
 * slurm-cluster.test.ts (root only); these cover the text forms, including the plugin's, which
 * cannot run here (Debian has Snakemake 7).
 */
import { describe, expect, it } from 'vitest';
import {
  describeSacctJob,
  describeSlurmJob,
  parseSacct,
  parseScontrolJob,
  sacctBytes,
  sacctSeconds,
  submittedJob,
} from '../../../src/service/engines/snakemake/slurm-jobs';
import { SnakemakeEvents } from '../../../src/service/engines/snakemake/snakemake-events';
import type { EngineSink } from '../../../src/service/engines/engine';

describe('SLURM job records', () => {
  it("reads Snakemake 7's and 8's submission messages", () => {
    expect(submittedJob("Submitted job 3 with external jobid '1234'.")).toEqual({ jobid: 3, slurmJob: '1234' });
    expect(submittedJob("Submitted group job 7 with external jobid '88;cluster2'.")).toEqual({
      jobid: 7,
      slurmJob: '88',
    });
    expect(submittedJob('Job 2 has been submitted with SLURM jobid 4242 (log: /x/4242.log).')).toEqual({
      jobid: 2,
      slurmJob: '4242',
    });
    expect(submittedJob('Finished job 3.')).toBeNull();
  });

  it('reads a one-line scontrol record and says what is and is not known', () => {
    const r = parseScontrolJob(
      'JobId=17 JobName=laneway-5-align UserId=root(0) JobState=COMPLETED Reason=None RunTime=00:00:04 ' +
        'TimeLimit=00:30:00 Partition=laneway_bio NodeList=node1 NumCPUs=2 AllocTRES=cpu=2,mem=1G,node=1,billing=2',
    );
    expect(r).toMatchObject({
      JobId: '17',
      JobState: 'COMPLETED',
      NumCPUs: '2',
      AllocTRES: 'cpu=2,mem=1G,node=1,billing=2',
    });
    expect(describeSlurmJob('17', r)).toBe(
      'SLURM job 17 COMPLETED on partition laneway_bio, node node1: ran 00:00:04 with 2 CPU(s) and 1G memory allocated ' +
        '(time limit 00:30:00); CPU and memory use are not known without SLURM accounting storage',
    );
    expect(describeSlurmJob('18', null)).toMatch(/no longer knows it/);
  });

  it('maps submitted SLURM jobs to the processes of their Snakemake jobs', () => {
    // A sink that records the process names it is told, as the execution recorder would store them.
    const names: string[] = [];
    const sink: EngineSink = {
      process: (n) => void names.push(n),
      progress: () => {},
      log: () => {},
      output: () => {},
      resources: () => {},
      expect: () => {},
      spawned: () => {},
    };
    const events = new SnakemakeEvents(sink, '/tmp');
    events.message({ level: 'job_info', jobid: 4, name: 'align', wildcards: { sample: 'S1' } });
    events.message({ level: 'info', msg: "Submitted job 4 with external jobid '301'." });
    expect(events.clusterJobs()).toEqual([{ process: 'align (sample=S1)', slurmJob: '301' }]);
    expect(names).toEqual(['align (sample=S1)']);
  });

  // Real output of `sacct -j ID --parsable2 --noheader --format=JobID,State,Partition,NodeList,
  // Elapsed,TotalCPU,MaxRSS,AllocCPUS,ReqMem`, captured from slurm-cluster.test.ts's cluster
  // (Debian's slurm-wlm 22.05 with slurmdbd on MariaDB, jobacct_gather/linux every second) on
  // 2026-11-24: job 3 is the run's `sort` rule, job 1 its `align` rule, which ended before the
  // first sample.
  it("reads sacct's accounting lines into cpu_percent and memory_gb", () => {
    const sort = parseSacct(
      '3',
      '3|COMPLETED|laneway_bio|vm|00:00:01|00:00.869||1|1G\n3.batch|COMPLETED||vm|00:00:01|00:00.869|117712K|1|\n',
    )!;
    expect(sort).toMatchObject({
      state: 'COMPLETED',
      partition: 'laneway_bio',
      nodes: 'vm',
      elapsedSeconds: 1,
      cpuSeconds: 0.869,
      allocCpus: 1,
      reqMem: '1G',
      maxRssBytes: 117712 * 1024,
      batchStep: true,
    });
    expect(sort.cpuPercent).toBeCloseTo(86.9, 6);
    expect(sort.memoryGb).toBeCloseTo(117712 / 1024 ** 2, 9);
    expect(describeSacctJob(sort)).toBe(
      'SLURM job 3 COMPLETED on partition laneway_bio, node vm: ran 00:00:01 with 1 CPU(s) and 1G memory allocated; ' +
        'used 00:00.869 CPU time (86.9% of its CPUs) and at most 115.0 MB memory (sacct)',
    );
    const align = parseSacct(
      '1',
      '1|COMPLETED|laneway_bio|vm|00:00:01|00:00.779||1|1G\n1.batch|COMPLETED||vm|00:00:01|00:00.779||1|\n',
    )!;
    expect(align).toMatchObject({ batchStep: true, maxRssBytes: null, cpuPercent: null, memoryGb: null });
    expect(describeSacctJob(align)).toMatch(/no CPU or memory use recorded/);
    // A job sacct does not list (another id's lines) is no record at all.
    expect(parseSacct('4', '3|COMPLETED|laneway_bio|vm|00:00:01|00:00.869||1|1G\n')).toBeNull();
  });

  it("reads sacct's durations and sizes, days and 1024-based units included", () => {
    expect(sacctSeconds('00:02.984')).toBeCloseTo(2.984, 9);
    expect(sacctSeconds('00:00:03')).toBe(3);
    expect(sacctSeconds('1-02:03:04')).toBe(86_400 + 2 * 3600 + 3 * 60 + 4);
    expect(sacctSeconds('')).toBeNaN();
    expect(sacctBytes('96752K')).toBe(96752 * 1024);
    expect(sacctBytes('1.50M')).toBe(1.5 * 1024 ** 2);
    expect(sacctBytes('0')).toBe(0);
    expect(sacctBytes('')).toBeNull();
  });
});
