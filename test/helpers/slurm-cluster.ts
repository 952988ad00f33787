/**
 * A real single-node SLURM cluster for tests, from Debian's slurm-wlm and munge (the recipe in
 * the shared MACHINE.md): its own munged on a private socket, slurmctld and slurmd on free
 * ports, spool and state in a temp folder, job completions in a jobcomp/filetxt file (no
 * accounting database here, so that file is what `sacct` would tell). Every wait is bounded and
 * stop() ends the daemons by their PIDs, so a broken set-up fails fast instead of hanging CI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, totalmem, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { onPath } from '../../src/service/pipelines/tool-check';
import { tempDir } from './temp';

export interface SlurmCluster {
  conf: string;
  /** Environment for sbatch/squeue and for a service that submits (SLURM_CONF). */
  env: Record<string, string>;
  /** Completed jobs as the scheduler recorded them (jobcomp/filetxt), one object per job. */
  completedJobs(): Array<Record<string, string>>;
  stop(): Promise<void>;
}

/** Why this machine cannot start a cluster, or null when it can. */
export function slurmUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (slurmd runs jobs as their users)';
  for (const p of ['munged', 'slurmctld', 'slurmd', 'sbatch', 'sinfo']) {
    if (!onPath(p, `${process.env.PATH}:/usr/sbin`)) return `${p} is not installed (apt-get install slurm-wlm munge)`;
  }
  if (!existsSync('/etc/munge/munge.key')) return 'no /etc/munge/munge.key';
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function pidOf(file: string): number | null {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`SLURM test cluster: ${what} within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/** Starts munged, slurmctld and slurmd with the named partitions (the first is the default). */
export async function startSlurmCluster(partitions: string[]): Promise<SlurmCluster> {
  const dir = tempDir('laneway-slurm-');
  const root = dir.path;
  // munged runs as user munge and checks every folder on its socket's path.
  chmodSync(root, 0o755);
  const munge = join(root, 'munge');
  mkdirSync(munge, { mode: 0o755 });
  const ids = execFileSync('id', ['-u', 'munge']).toString().trim();
  chownSync(munge, Number(ids), Number(execFileSync('id', ['-g', 'munge']).toString().trim()));
  for (const d of ['spool', 'state', 'log']) mkdirSync(join(root, d));
  const socket = join(munge, 'munge.sock');
  const node = hostname().split('.')[0]!;
  const [ctldPort, dPort] = [await freePort(), await freePort()];
  const conf = join(root, 'slurm.conf');
  const jobcomp = join(root, 'jobcomp.txt');
  const memoryMb = Math.floor(totalmem() / 1024 / 1024 / 2);
  writeFileSync(
    conf,
    [
      'ClusterName=laneway',
      `SlurmctldHost=${node}(127.0.0.1)`,
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${dPort}`,
      'SlurmUser=root',
      'AuthType=auth/munge',
      `AuthInfo=socket=${socket}`,
      'CredType=cred/munge',
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core_Memory',
      'JobAcctGatherType=jobacct_gather/none',
      'AccountingStorageType=accounting_storage/none',
      'JobCompType=jobcomp/filetxt',
      `JobCompLoc=${jobcomp}`,
      `StateSaveLocation=${join(root, 'state')}`,
      `SlurmdSpoolDir=${join(root, 'spool')}`,
      `SlurmctldPidFile=${join(root, 'slurmctld.pid')}`,
      `SlurmdPidFile=${join(root, 'slurmd.pid')}`,
      `SlurmctldLogFile=${join(root, 'log', 'slurmctld.log')}`,
      `SlurmdLogFile=${join(root, 'log', 'slurmd.log')}`,
      'ReturnToService=2',
      'MpiDefault=none',
      `NodeName=${node} NodeAddr=127.0.0.1 CPUs=${availableParallelism()} RealMemory=${memoryMb} State=UNKNOWN`,
      ...partitions.map(
        (p, i) => `PartitionName=${p} Nodes=${node} MaxTime=INFINITE State=UP${i === 0 ? ' Default=YES' : ''}`,
      ),
      '',
    ].join('\n'),
  );
  const env = { SLURM_CONF: conf };
  const pids: number[] = [];
  const stop = async () => {
    for (const pid of [...pids].reverse()) {
      if (!alive(pid)) continue;
      process.kill(pid, 'SIGTERM');
      const deadline = Date.now() + 10_000;
      while (alive(pid) && Date.now() < deadline) await sleep(100);
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    dir.remove();
  };
  const daemon = (command: string, args: string[], pidFile: string, user?: string) => {
    const r = user
      ? spawnSync('su', ['-s', '/bin/sh', user, '-c', [command, ...args].join(' ')], { timeout: 20_000 })
      : spawnSync(command, args, { timeout: 20_000, env: { ...process.env, ...env } });
    if (r.status !== 0) throw new Error(`${command} did not start: ${r.stderr?.toString() || r.error?.message}`);
    return pidFile;
  };
  try {
    const mungePid = daemon(
      '/usr/sbin/munged',
      [
        `--socket=${socket}`,
        `--pid-file=${join(munge, 'munged.pid')}`,
        `--log-file=${join(munge, 'munged.log')}`,
        `--seed-file=${join(munge, 'seed')}`,
      ],
      join(munge, 'munged.pid'),
      'munge',
    );
    await until('munged wrote its PID', () => pidOf(mungePid) !== null, 10_000);
    pids.push(pidOf(mungePid)!);
    for (const [cmd, pidFile] of [
      ['/usr/sbin/slurmctld', join(root, 'slurmctld.pid')],
      ['/usr/sbin/slurmd', join(root, 'slurmd.pid')],
    ] as const) {
      daemon(cmd, ['-f', conf], pidFile);
      await until(`${cmd} wrote its PID`, () => pidOf(pidFile) !== null, 15_000);
      pids.push(pidOf(pidFile)!);
    }
    await until(
      'the node became idle',
      () => {
        const r = spawnSync('sinfo', ['-h', '-N', '-o', '%T'], { env: { ...process.env, ...env }, timeout: 10_000 });
        return r.status === 0 && /^idle/m.test(r.stdout.toString());
      },
      45_000,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    conf,
    env,
    completedJobs() {
      if (!existsSync(jobcomp)) return [];
      return readFileSync(jobcomp, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => Object.fromEntries([...line.matchAll(/(\w+)=(\S*)/g)].map((m) => [m[1]!, m[2]!])));
    },
    stop,
  };
}
