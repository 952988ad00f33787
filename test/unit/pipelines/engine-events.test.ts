import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EngineSink } from '../../../src/service/engines/engine';
import { NextflowWeblog, type WeblogEvent } from '../../../src/service/engines/nextflow/nextflow-weblog';
import { nextflowArgs } from '../../../src/service/engines/nextflow/nextflow-engine';
import { jobName, SnakemakeEvents } from '../../../src/service/engines/snakemake/snakemake-events';
import { snakemakePassThrough, splitArgs } from '../../../src/service/engines/snakemake/snakemake-engine';

function recordingSink() {
  const calls: string[] = [];
  const sink: EngineSink = {
    process: (n, s, e) => calls.push(`process ${n} ${s}${e === undefined ? '' : ` ${e}`}`),
    progress: (n, p) => calls.push(`progress ${n} ${p}`),
    log: (p, l, m) => calls.push(`log ${p} ${l} ${m}`),
    output: (p, t) => calls.push(`output ${p} ${t}`),
    resources: (n, c, m) => calls.push(`resources ${n} ${c} ${m.toFixed(3)}`),
    expect: (t) => calls.push(`expect ${t}`),
    spawned: () => {},
  };
  return { calls, sink };
}

const fixture = (name: string): WeblogEvent[] =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/nextflow-weblog/${name}`, import.meta.url)), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as WeblogEvent);

describe('Nextflow weblog events as process executions (recorded streams)', () => {
  it('maps a successful run: each task a process with exit code and its own resources', () => {
    const { calls, sink } = recordingSink();
    const weblog = new NextflowWeblog(sink);
    for (const e of fixture('variant-calling-success.ndjson')) weblog.event(e);
    expect(weblog.ended).toEqual({ success: true });
    expect(calls.filter((c) => c.startsWith('process ALIGN (S1)'))).toEqual([
      'process ALIGN (S1) queued',
      'process ALIGN (S1) running',
      'process ALIGN (S1) completed 0',
    ]);
    expect(calls).toContain('resources ALIGN (S1) 187.3 0.291');
    expect(calls.filter((c) => c.startsWith('process ') && c.endsWith('completed 0'))).toHaveLength(4);
    expect(calls.at(-1)).toBe('log nextflow INFO Workflow completed');
  });

  it('maps a failed run: the failed task, its exit code, and the workflow error', () => {
    const { calls, sink } = recordingSink();
    const weblog = new NextflowWeblog(sink);
    for (const e of fixture('variant-calling-failure.ndjson')) weblog.event(e);
    expect(calls).toContain('process CALL (S1) failed 1');
    expect(calls).toContain('log CALL (S1) ERROR Task CALL (S1) failed (exit 1)');
    expect(weblog.ended).toEqual({
      success: false,
      error: 'Process `CALL (S1)` terminated with an error exit status (1)',
    });
  });

  it('passes profile, executor and queue through to nextflow', () => {
    const job = {
      workDir: '/w',
      executionId: 7,
      serviceUrl: 'http://127.0.0.1:9',
      callbackSecret: 's3',
      queue: 'long',
    } as never;
    const args = nextflowArgs({ workflow: 'nf-core/sarek', revision: '3.4.0' }, job, '/w/params.json', {
      LANEWAY_NEXTFLOW_PROFILE: 'slurm,singularity',
      LANEWAY_NEXTFLOW_EXECUTOR: 'slurm',
      LANEWAY_NEXTFLOW_ARGS: '-resume -c "/etc/lab nextflow.config"',
    });
    expect(args).toEqual([
      'run',
      'nf-core/sarek',
      '-r',
      '3.4.0',
      '-params-file',
      '/w/params.json',
      '-work-dir',
      '/w/work',
      '-with-weblog',
      'http://127.0.0.1:9/api/executions/7/weblog/s3',
      '-ansi-log',
      'false',
      '-profile',
      'slurm,singularity',
      '-process.executor=slurm',
      '-process.queue=long',
      '-resume',
      '-c',
      '/etc/lab nextflow.config',
    ]);
  });
});

describe('Snakemake log-handler messages as process executions', () => {
  it('names jobs by rule and wildcards and follows them to the end', () => {
    const { calls, sink } = recordingSink();
    const events = new SnakemakeEvents(sink, '/nonexistent');
    events.line(JSON.stringify({ level: 'progress', done: 0, total: 3 }));
    events.line(JSON.stringify({ level: 'job_info', jobid: 2, name: 'align', wildcards: { sample: 'S1' }, log: [] }));
    events.line(JSON.stringify({ level: 'shellcmd', msg: ' minimap2 -a ref.fa S1.fq ' }));
    events.line(JSON.stringify({ level: 'job_finished', jobid: 2 }));
    events.line(JSON.stringify({ level: 'job_info', jobid: 3, name: 'sort', wildcards: { sample: 'S1' }, log: [] }));
    events.line(JSON.stringify({ level: 'job_error', jobid: 3, name: 'sort', msg: null }));
    events.line(JSON.stringify({ level: 'error', msg: 'Exiting because a job execution failed.' }));
    events.line('not json');
    expect(calls).toEqual([
      'expect 3',
      'process align (sample=S1) running',
      'log align (sample=S1) INFO minimap2 -a ref.fa S1.fq',
      'progress align (sample=S1) 100',
      'process align (sample=S1) completed 0',
      'process sort (sample=S1) running',
      'log sort (sample=S1) ERROR Error in rule sort',
      'process sort (sample=S1) failed 1',
      'log snakemake ERROR Exiting because a job execution failed.',
    ]);
    expect(jobName('all', {})).toBe('all');
  });

  it('passes a profile and executor flags through', () => {
    expect(
      snakemakePassThrough({
        LANEWAY_SNAKEMAKE_PROFILE: 'slurm',
        LANEWAY_SNAKEMAKE_ARGS: "--jobs 50 --cluster 'sbatch -p {resources.queue}'",
      }),
    ).toEqual(['--profile', 'slurm', '--jobs', '50', '--cluster', 'sbatch -p {resources.queue}']);
    expect(splitArgs('a "b c" \'d e\'')).toEqual(['a', 'b c', 'd e']);
  });
});
