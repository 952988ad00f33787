/**
 * The resources a run asks for (cpus, memory, queue, time_limit), checked against this
 * machine's capacity. Memory is "8G", "512M" or a number of GB; a time limit is seconds,
 * "90m", "2h" or "HH:MM:SS" as cluster schedulers write it.
 */
import { availableParallelism, totalmem } from 'node:os';

export interface RunResources {
  cpus: number;
  memoryGb: number | null;
  queue: string | null;
  timeLimitSeconds: number | null;
  /** False when the engine sends the work to a cluster: the run then holds one local CPU. */
  local?: boolean;
}

export interface Capacity {
  cpus: number;
  memoryGb: number;
}

/** This machine's capacity for executions. */
export function machineCapacity(): Capacity {
  return { cpus: availableParallelism(), memoryGb: Math.floor((totalmem() / 1024 ** 3) * 10) / 10 };
}

/** Parses "8G", "512M", "1.5GB" or a number (GB); null when not understood. */
export function parseMemoryGb(value: unknown): number | null {
  if (typeof value === 'number') return value > 0 ? value : null;
  if (typeof value !== 'string') return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)I?B?\s*$/i.exec(value);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2]!.toUpperCase();
  const gb = unit === 'K' ? n / 1024 ** 2 : unit === 'M' ? n / 1024 : unit === 'T' ? n * 1024 : n;
  return gb > 0 ? gb : null;
}

/** Parses seconds, "90s", "90m", "2h", "1d" or "[D-]HH:MM:SS" / "MM:SS"; null when not understood. */
export function parseTimeLimit(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : null;
  if (typeof value !== 'string') return null;
  const unit = /^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$/i.exec(value);
  if (unit) {
    const n = Number(unit[1]);
    const mult = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[unit[2]!.toLowerCase()]!;
    return n > 0 ? n * mult : null;
  }
  const clock = /^\s*(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+)\s*$/.exec(value);
  if (!clock) return null;
  const [, d, h, m, s] = clock;
  const total = Number(d ?? 0) * 86400 + Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s);
  return total > 0 ? total : null;
}

/**
 * A scheduler queue (partition) name as SLURM, PBS (`queue@server`), SGE and LSF write them.
 * The queue reaches engine command lines, job scripts (`#SBATCH -p`) and templates such as
 * `--cluster 'sbatch -p {resources.queue}'` that a shell expands, so nothing else gets through:
 * no whitespace or newline (a new `#SBATCH` line), no `$`, backquote, quote or `;`.
 */
export function isQueueName(value: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._+@-]{0,63}$/.test(value);
}

/**
 * Checks requested resources; returns them or per-field messages. Cluster runs (an executor
 * configured for the engine) are not bounded by this machine.
 */
export function checkResources(
  raw: { cpus?: unknown; memory?: unknown; queue?: unknown; time_limit?: unknown } | undefined,
  defaults: { cpus: number },
  capacity: Capacity,
  local: boolean,
): { resources?: RunResources; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const r = raw ?? {};
  let cpus = Math.min(defaults.cpus, capacity.cpus);
  if (r.cpus !== undefined) {
    if (typeof r.cpus !== 'number' || !Number.isInteger(r.cpus) || r.cpus < 1)
      fields['resources.cpus'] = 'a whole number >= 1';
    else if (local && r.cpus > capacity.cpus) fields['resources.cpus'] = `this machine has ${capacity.cpus} CPUs`;
    else cpus = r.cpus;
  }
  let memoryGb: number | null = null;
  if (r.memory !== undefined && r.memory !== null) {
    memoryGb = parseMemoryGb(r.memory);
    if (memoryGb === null) fields['resources.memory'] = 'a size such as 8G or 512M';
    else if (local && memoryGb > capacity.memoryGb)
      fields['resources.memory'] = `this machine has ${capacity.memoryGb} GB`;
  }
  let timeLimitSeconds: number | null = null;
  if (r.time_limit !== undefined && r.time_limit !== null) {
    timeLimitSeconds = parseTimeLimit(r.time_limit);
    if (timeLimitSeconds === null)
      fields['resources.time_limit'] = 'seconds, or a duration such as 90m, 2h or 01:30:00';
  }
  if (r.queue !== undefined && r.queue !== null && (typeof r.queue !== 'string' || !isQueueName(r.queue)))
    fields['resources.queue'] = 'a queue name: 1-64 letters, digits and . _ - + @, starting with a letter or digit';
  if (Object.keys(fields).length) return { fields };
  return {
    fields,
    resources: { cpus, memoryGb, queue: typeof r.queue === 'string' ? r.queue : null, timeLimitSeconds, local },
  };
}
