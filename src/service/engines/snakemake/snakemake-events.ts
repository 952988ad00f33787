/**
 * Maps Snakemake's structured log messages (written by laneway_log_handler.py) to process
 * executions: each job of a rule is one process, named by the rule and its wildcards.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EngineSink, LogLevel } from '../engine';
import { submittedJob } from './slurm-jobs';

export interface SnakemakeMessage {
  level: string;
  jobid?: number;
  name?: string;
  msg?: string;
  done?: number;
  total?: number;
  wildcards?: Record<string, string>;
  log?: string[];
  shellcmd?: string;
}

const LEVELS: Record<string, LogLevel> = { info: 'INFO', run_info: 'INFO', warning: 'WARNING', error: 'ERROR' };
const MAX_LOG_LINES = 200;
/** The most of a tool's last log line that goes into the execution's error. */
const MAX_REASON = 500;

/** The process name of a job: "align (sample=S1)". */
export function jobName(rule: string, wildcards: Record<string, string> | undefined): string {
  const w = Object.entries(wildcards ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return w ? `${rule} (${w})` : rule;
}

/** Stateful translator for one Snakemake run. */
export class SnakemakeEvents {
  private jobs = new Map<number, { name: string; log: string[] }>();
  private lastJob: string | null = null;
  /** The first failed job, for the execution's error. */
  firstError: string | null = null;
  /** Jobs Snakemake submitted to SLURM: Snakemake's job id to the SLURM job id. */
  readonly slurmJobs = new Map<number, string>();

  constructor(
    private readonly sink: EngineSink,
    private readonly workDir: string,
  ) {}

  /** Handles one JSON line from the log handler; other text is ignored. */
  line(text: string): void {
    let msg: SnakemakeMessage;
    try {
      msg = JSON.parse(text) as SnakemakeMessage;
    } catch {
      return;
    }
    this.message(msg);
  }

  message(msg: SnakemakeMessage): void {
    switch (msg.level) {
      case 'job_info': {
        if (msg.jobid === undefined || !msg.name) return;
        const name = jobName(msg.name, msg.wildcards);
        this.jobs.set(msg.jobid, { name, log: msg.log ?? [] });
        this.lastJob = name;
        this.sink.process(name, 'running');
        return;
      }
      case 'job_finished': {
        const job = msg.jobid === undefined ? undefined : this.jobs.get(msg.jobid);
        if (!job) return;
        this.ruleLogs(job, 'INFO');
        this.sink.progress(job.name, 100);
        this.sink.process(job.name, 'completed', 0);
        return;
      }
      case 'job_error': {
        const job = msg.jobid === undefined ? undefined : this.jobs.get(msg.jobid);
        const name = job?.name ?? jobName(msg.name ?? 'snakemake', msg.wildcards);
        const said = this.ruleLogs(job ?? { name, log: msg.log ?? [] }, 'ERROR');
        const text = `Error in rule ${msg.name ?? name}${msg.msg ? `: ${msg.msg}` : ''}`;
        // The tool's own last words (its log's last line) say why; the rule's name alone does not.
        const why = said ? `: ${said.length > MAX_REASON ? `${said.slice(0, MAX_REASON)}…` : said}` : '';
        this.firstError ??= `${job ? `${text} (${job.name})` : text}${why}`;
        this.sink.log(name, 'ERROR', text);
        this.sink.process(name, 'failed', 1);
        return;
      }
      case 'progress':
        if (typeof msg.total === 'number') this.sink.expect(msg.total);
        return;
      case 'shellcmd':
        if (msg.msg) this.sink.log(this.lastJob ?? 'snakemake', 'INFO', msg.msg.trim());
        return;
      default: {
        const submitted = msg.msg ? submittedJob(msg.msg) : null;
        if (submitted) this.slurmJobs.set(submitted.jobid, submitted.slurmJob);
        const level = LEVELS[msg.level];
        if (level && msg.msg && msg.msg.trim()) {
          for (const l of msg.msg.trim().split('\n')) this.sink.log('snakemake', level, l);
        }
      }
    }
  }

  /** The process name of each job submitted to SLURM, with its SLURM job id. */
  clusterJobs(): Array<{ process: string; slurmJob: string }> {
    return [...this.slurmJobs].map(([jobid, slurmJob]) => ({
      process: this.jobs.get(jobid)?.name ?? 'snakemake',
      slurmJob,
    }));
  }

  /** A rule's log files (its tools' stderr, by the `log:` directive) become its log lines; returns the last. */
  private ruleLogs(job: { name: string; log: string[] }, level: LogLevel): string | null {
    let last: string | null = null;
    for (const file of job.log) {
      let text: string;
      try {
        text = readFileSync(resolve(this.workDir, file), 'utf8');
      } catch {
        continue;
      }
      const lines = text.split('\n').filter((l) => l.trim());
      for (const l of lines.slice(-MAX_LOG_LINES)) this.sink.log(job.name, level, l);
      last = lines.at(-1)?.trim() ?? last;
    }
    return last;
  }
}
