/** The processes of a running app, for specs that kill or restart its parts. */
import { execFileSync } from 'node:child_process';

/** The embedded service's process: the direct child of the `laneway start` process. */
export function servicePid(cliPid: number): number {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(cliPid)], { encoding: 'utf8' });
  const pids = out
    .split('\n')
    // From source `service/entry.ts`; from the built bundle `out/cli/<hash>/entry.js`.
    .filter((l) => /(service\/entry|\/entry\.js)(\s|$)/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
  if (pids.length !== 1) throw new Error(`expected one service child of ${cliPid}, found ${pids.join(',')}`);
  return pids[0]!;
}
