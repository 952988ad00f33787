/**
 * A worker's own resource use, reported in its protocol messages (protocol.ts `usage`): CPU time
 * from `process.cpuUsage()` (every thread of the process, so QC's scanning threads count) over
 * the wall time of one step, and the process's peak resident memory from
 * `process.resourceUsage().maxRSS`. Node provides both on Linux, macOS and Windows, so figures do
 * not depend on /proc, and a step shorter than the service's sampling interval still has them.
 * maxRSS is the process's high-water mark so far: for a later step it is the peak of the worker
 * up to the end of that step, never less than what the step itself used.
 */
import type { EngineMessage } from './protocol';

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
    // maxRSS is in kilobytes (KiB) on every platform Node supports.
    max_rss_bytes: process.resourceUsage().maxRSS * 1024,
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
