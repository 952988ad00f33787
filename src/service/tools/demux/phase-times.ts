/**
 * Where a `laneway demux` run's time goes, for tuning its fixed cost (docs/benchmarks.md): with
 * LANEWAY_DEMUX_TIMES=1 each phase's end is noted as milliseconds since the process started and
 * the process's CPU milliseconds so far (every thread), and the list goes to stderr at exit.
 * Otherwise a mark returns at once; marks are never placed in the per-read loop.
 */
const on = !!process.env.LANEWAY_DEMUX_TIMES;
const marks: string[] = [];

export function phase(name: string): void {
  if (!on) return;
  if (marks.length === 0) {
    process.once('exit', () => {
      phase('exit');
      process.stderr.write(`demux times (ms since start / CPU ms): ${marks.join(' | ')}\n`);
    });
  }
  const cpu = process.cpuUsage();
  marks.push(`${name} ${performance.now().toFixed(0)}/${((cpu.user + cpu.system) / 1000).toFixed(0)}`);
}
