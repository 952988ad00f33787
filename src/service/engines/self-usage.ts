/**
 * A worker's own resource use, reported in its protocol messages (protocol.ts `usage`): CPU time
 * from `process.cpuUsage()` (every thread of the process, so QC's scanning threads count) over
 * the wall time of one step, and the process's peak resident memory (peakRssBytes). A step
 * shorter than the service's sampling interval still has them. The peak is the process's
 * high-water mark so far: for a later step it is the peak of the worker up to the end of that
 * step, never less than what the step itself used.
 */
import { readFileSync } from 'node:fs';
import type { EngineMessage } from './protocol';

/**
 * The peak resident memory of this process since it started its program. On Linux that is
 * VmHWM of /proc/self/status: getrusage's maxRSS (process.resourceUsage) keeps the high-water
 * mark from before the exec, so a worker the service spawns reported at least the service's own
 * memory at the fork (peak-rss.test.ts). Elsewhere, maxRSS (KiB on every platform Node supports).
 */
export function peakRssBytes(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // no /proc: not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

export interface UsageMeter {
  cpu: NodeJS.CpuUsage;
  wall: number;
}

/** Starts measuring a step. */
export function startUsage(): UsageMeter {
  return { cpu: process.cpuUsage(), wall: performance.now() };
}

/** The `usage` message for a step measured since `meter` started. */
export function usageMessage(processName: string, meter: UsageMeter): Extract<EngineMessage, { type: 'usage' }> {
  const cpu = process.cpuUsage(meter.cpu);
  return {
    type: 'usage',
    process: processName,
    cpu_seconds: (cpu.user + cpu.system) / 1e6,
    wall_seconds: (performance.now() - meter.wall) / 1000,
    max_rss_bytes: peakRssBytes(),
  };
}

/** CPU percent of one core and memory in GB from a usage message (the units process rows use). */
export function usageFigures(msg: Extract<EngineMessage, { type: 'usage' }>): {
  cpuPercent: number;
  memoryGb: number;
} {
  const cpuPercent = msg.wall_seconds > 0 ? (100 * msg.cpu_seconds) / msg.wall_seconds : 0;
  return { cpuPercent, memoryGb: msg.max_rss_bytes / 1024 ** 3 };
}
