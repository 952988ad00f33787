/**
 * The Snakemake adapter: runs Debian's snakemake on a shipped workflow with the job as its
 * config file, and reads Snakemake's structured log (job started, finished, failed, progress)
 * through a log-handler script on fd 3. Executor, queue and profile settings pass through, so
 * a lab runs the same catalogue on SLURM or Kubernetes with Snakemake's own executors.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { EngineError, type Engine, type EngineJobInput, type EngineSink } from '../engine';
import { runChild } from '../child-run';
import { registerOutputFiles, safeName } from '../output-files';
import { condaArgs, condaFrontend } from './conda-frontend';
import { LOG_HANDLER_PY } from './log-handler-script';
import { LOGGER_PLUGIN_MODULE, LOGGER_PLUGIN_PY } from './logger-plugin';
import { defaultResources, executorArgs } from './snakemake-resources';
import { snakemakeVersion, usesLogHandlerScript, type SnakemakeVersion } from './snakemake-version';
import { SnakemakeEvents } from './snakemake-events';
import { describeSacctJob, describeSlurmJob, sacctJob, slurmJobRecord } from './slurm-jobs';

const STDERR_TAIL = 40;

/** Extra arguments from the service's environment: a profile and free-form executor flags. */
export function snakemakePassThrough(env: NodeJS.ProcessEnv = process.env): string[] {
  const args: string[] = [];
  if (env.LANEWAY_SNAKEMAKE_PROFILE) args.push('--profile', env.LANEWAY_SNAKEMAKE_PROFILE);
  if (env.LANEWAY_SNAKEMAKE_ARGS) args.push(...splitArgs(env.LANEWAY_SNAKEMAKE_ARGS));
  return args;
}

/** Splits a flag string, honouring single and double quotes. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** The arguments of one run (exported for the documentation test of pass-through). */
export function snakemakeArgs(
  workflow: string,
  job: EngineJobInput,
  configFile: string,
  version: SnakemakeVersion,
  env: NodeJS.ProcessEnv = process.env,
  conda: string[] = [],
): string[] {
  const resources = {
    cpus: job.cpus,
    ...(job.memoryGb ? { memoryGb: job.memoryGb } : {}),
    ...(job.queue ? { queue: job.queue } : {}),
    ...(job.timeLimitSeconds ? { timeLimitSeconds: job.timeLimitSeconds } : {}),
  };
  const args = [
    '--snakefile',
    workflow,
    '--directory',
    job.workDir,
    '--configfile',
    configFile,
    '--cores',
    String(job.cpus),
    // Snakemake 7 and 8 read a log-handler script; 9 replaced it with logger plugins.
    ...(usesLogHandlerScript(version)
      ? ['--log-handler-script', join(job.workDir, 'laneway_log_handler.py')]
      : ['--logger', 'laneway']),
    '--nocolor',
    '--rerun-incomplete',
    // The run's resources as every job's resources: a cluster executor asks the scheduler for them.
    '--default-resources',
    ...defaultResources(resources),
  ];
  if (job.memoryGb) args.push('--resources', `mem_mb=${Math.floor(job.memoryGb * 1024)}`);
  return [
    ...args,
    ...conda,
    ...executorArgs(env, version, resources, join(job.workDir, 'cluster-logs'), job.executionId),
    ...snakemakePassThrough(env),
  ];
}

/** The engine for a version whose manifest names `snakemake` and a workflow. */
export function snakemakeEngine(workflow: string, options: { conda?: boolean } = {}): Engine {
  return {
    async run(job: EngineJobInput, sink: EngineSink) {
      const frontend = options.conda ? condaFrontend() : null;
      if (options.conda)
        sink.log(
          'laneway',
          'INFO',
          frontend
            ? `Using the workflow's conda environments (${frontend}, --use-conda)`
            : "conda is not installed here: the workflow's conda environments are not used; its rules run with the tools on PATH",
        );
      const configFile = join(job.workDir, 'laneway-config.json');
      const config = {
        samples: job.samples.map((s) => ({ ...s, key: safeName(s.name) })),
        parameters: job.parameters,
        files: job.files,
        outdir: job.outDir,
        max_reads: job.maxReads ?? null,
        threads: job.cpus,
        queue: job.queue ?? null,
      };
      // The killed attempt left Snakemake's lock behind; the queue runs one attempt at a time.
      if (job.resume) rmSync(join(job.workDir, '.snakemake', 'locks'), { recursive: true, force: true });
      writeFileSync(configFile, JSON.stringify(config, null, 2));
      writeFileSync(join(job.workDir, 'laneway_log_handler.py'), LOG_HANDLER_PY);
      const pluginDir = join(job.workDir, 'laneway_logger');
      mkdirSync(join(pluginDir, LOGGER_PLUGIN_MODULE), { recursive: true });
      writeFileSync(join(pluginDir, LOGGER_PLUGIN_MODULE, '__init__.py'), LOGGER_PLUGIN_PY);
      mkdirSync(join(job.workDir, 'cluster-logs'), { recursive: true });
      const events = new SnakemakeEvents(sink, job.workDir);
      // Snakemake's console text repeats what the log handler reports; its stderr is kept for
      // failures (tracebacks, tools writing outside their rule's log).
      const stderrTail: string[] = [];
      const code = await runChild({
        command: 'snakemake',
        args: snakemakeArgs(
          workflow,
          job,
          configFile,
          await snakemakeVersion(),
          process.env,
          condaArgs(frontend, job.condaPrefix),
        ),
        cwd: job.workDir,
        env: {
          LANEWAY_EVENTS_FD: '3',
          // Snakemake 9 finds the logger plugin as a module on the Python path.
          PYTHONPATH: [pluginDir, process.env.PYTHONPATH].filter(Boolean).join(delimiter),
          ...(job.queue ? { LANEWAY_QUEUE: job.queue } : {}),
        },
        signal: job.signal,
        sink,
        onEvents: (line) => events.line(line),
        onStdout: (line) => line.trim() && sink.log('snakemake', 'INFO', line),
        onStderr: (line) => {
          if (!line.trim()) return;
          stderrTail.push(line);
          if (stderrTail.length > STDERR_TAIL) stderrTail.shift();
        },
      });
      // The scheduler's word on each cluster job: its accounting (sacct) where the site runs it,
      // with the job's CPU and memory use as the process's figures; else scontrol's allocation.
      for (const { process, slurmJob } of events.clusterJobs()) {
        const accounted = await sacctJob(slurmJob);
        if (accounted) {
          sink.log(process, 'INFO', describeSacctJob(accounted));
          if (accounted.cpuPercent !== null && accounted.memoryGb !== null)
            sink.resources(process, accounted.cpuPercent, accounted.memoryGb);
        } else sink.log(process, 'INFO', describeSlurmJob(slurmJob, await slurmJobRecord(slurmJob)));
      }
      if (code !== 0) {
        for (const line of stderrTail) sink.log('snakemake', 'ERROR', line);
        throw new EngineError(
          `Snakemake failed (exit code ${code})${events.firstError ? `: ${events.firstError}` : stderrTail.length ? `: ${stderrTail.at(-1)}` : ''}`,
        );
      }
      registerOutputFiles(job.outDir, job.samples, sink);
    },
  };
}
