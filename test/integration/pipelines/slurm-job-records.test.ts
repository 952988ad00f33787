/**
 * Reading what SLURM says about a run's jobs: Snakemake's submission messages (7's --cluster,
 * 8's SLURM executor plugin) and `scontrol -o show job` records. The real cluster run is in
 * slurm-cluster.test.ts (root only); these cover the text forms, including the plugin's, which
 * cannot run here (Debian has Snakemake 7).
 */
import { describe, expect, it } from 'vitest';
import { describeSlurmJob, parseScontrolJob, submittedJob } from '../../../src/service/engines/snakemake/slurm-jobs';
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
});
