/**
 * The Nextflow adapter: runs `nextflow run` with the job as a params file and a sample sheet,
 * and follows it through `-with-weblog`, which POSTs every task event to this service (a route
 * authenticated by a per-execution secret). Profile, executor and queue pass through, so a lab
 * runs the same catalogue on SLURM, Kubernetes or cloud batch with Nextflow's own executors.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError, type Engine, type EngineJobInput, type EngineSink } from '../engine';
import { runChild } from '../child-run';
import { registerOutputFiles, safeName } from '../output-files';
import { splitArgs } from '../snakemake/snakemake-engine';
import { NextflowWeblog } from './nextflow-weblog';

/** The arguments of one run. */
export function nextflowArgs(
  spec: { workflow: string; revision?: string },
  job: EngineJobInput,
  paramsFile: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const args = ['run', spec.workflow];
  if (spec.revision) args.push('-r', spec.revision);
  args.push(
    '-params-file',
    paramsFile,
    '-work-dir',
    join(job.workDir, 'work'),
    '-with-weblog',
    `${job.serviceUrl}/api/executions/${job.executionId}/weblog/${job.callbackSecret}`,
    '-ansi-log',
    'false',
  );
  // Nextflow's cache of finished tasks lives in this run's work folder and launch folder.
  if (job.resume) args.push('-resume');
  if (env.LANEWAY_NEXTFLOW_PROFILE) args.push('-profile', env.LANEWAY_NEXTFLOW_PROFILE);
  if (env.LANEWAY_NEXTFLOW_EXECUTOR) args.push(`-process.executor=${env.LANEWAY_NEXTFLOW_EXECUTOR}`);
  if (job.queue) args.push(`-process.queue=${job.queue}`);
  if (env.LANEWAY_NEXTFLOW_ARGS) args.push(...splitArgs(env.LANEWAY_NEXTFLOW_ARGS));
  return args;
}

/** The engine for a version whose manifest names `nextflow` and a workflow. */
export function nextflowEngine(spec: { workflow: string; revision?: string }): Engine {
  return {
    async run(job: EngineJobInput, sink: EngineSink) {
      const sheet = join(job.workDir, 'samplesheet.csv');
      writeFileSync(
        sheet,
        ['sample,fastq_1,fastq_2', ...job.samples.map((s) => `${safeName(s.name)},${s.read1},${s.read2 ?? ''}`)].join(
          '\n',
        ) + '\n',
      );
      const paramsFile = join(job.workDir, 'params.json');
      const params = {
        ...job.parameters,
        ...job.files,
        input: sheet,
        outdir: job.outDir,
        max_reads: job.maxReads ?? 0,
        max_cpus: job.cpus,
      };
      writeFileSync(paramsFile, JSON.stringify(params, null, 2));
      const weblog = new NextflowWeblog(sink);
      job.weblogReceivers.set(job.callbackSecret, { executionId: job.executionId, receive: (e) => weblog.event(e) });
      let code: number;
      try {
        code = await runChild({
          command: 'nextflow',
          args: nextflowArgs(spec, job, paramsFile),
          cwd: job.workDir,
          env: { NXF_ANSI_LOG: 'false' },
          signal: job.signal,
          sink,
          onStdout: (line) => line.trim() && sink.log('nextflow', 'INFO', line),
          onStderr: (line) => line.trim() && sink.log('nextflow', 'ERROR', line),
        });
      } finally {
        job.weblogReceivers.delete(job.callbackSecret);
      }
      if (code !== 0 || weblog.ended?.success === false) {
        throw new EngineError(
          `Nextflow failed (exit code ${code})${weblog.ended?.error ? `: ${weblog.ended.error}` : ''}`,
        );
      }
      registerOutputFiles(job.outDir, job.samples, sink);
    },
  };
}
