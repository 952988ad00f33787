/**
 * A real single-node SLURM cluster for tests, from Debian's slurm-wlm and munge (the recipe in
 * the shared MACHINE.md): its own munged on a private socket, slurmctld and slurmd on free
 * ports, spool and state in a temp folder, and real accounting: a MariaDB server in its own
 * datadir on a private port, slurmdbd storing into it (accounting_storage/mysql), the cluster
 * registered with sacctmgr and jobacct_gather/linux measuring each job, so `sacct` answers as on
 * a site's cluster. Every wait is bounded and stop() ends the daemons by their PIDs, so a broken
 * set-up fails fast instead of hanging CI.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, totalmem, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { onPath } from '../../src/service/engines/tool-check';
import { tempDir } from './temp';

// slurmdbd's MariaDB account; the server listens on 127.0.0.1 only and lives as long as the test.
const SQL_USER = 'slurm';
const SQL_PASS = 'laneway-test';

export interface SlurmCluster {
  conf: string;
  /** Environment for sbatch/squeue and for a service that submits (SLURM_CONF). */
  env: Record<string, string>;
  /** `sacct` rows (jobs and their steps, all users) with the named fields, one object per row. */
  sacct(fields: string[]): Array<Record<string, string>>;
  /** The same with every step (JobID 12.batch, ...) and its own figures. */
  sacctSteps(fields: string[]): Array<Record<string, string>>;
  stop(): Promise<void>;
}

/** Why this machine cannot start a cluster, or null when it can. */
export function slurmUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (slurmd runs jobs as their users)';
  for (const p of ['munged', 'slurmctld', 'slurmd', 'sbatch', 'sinfo']) {
    if (!onPath(p, `${process.env.PATH}:/usr/sbin`)) return `${p} is not installed (apt-get install slurm-wlm munge)`;
  }
  for (const p of ['slurmdbd', 'sacctmgr', 'mariadbd', 'mariadb-install-db', 'mariadb']) {
    if (!onPath(p, `${process.env.PATH}:/usr/sbin`))
      return `${p} is not installed (apt-get install slurmdbd mariadb-server, for accounting)`;
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
  for (const d of ['spool', 'state', 'log', 'db']) mkdirSync(join(root, d));
  const socket = join(munge, 'munge.sock');
  const node = hostname().split('.')[0]!;
  const [ctldPort, dPort, dbdPort, sqlPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const conf = join(root, 'slurm.conf');
  const sqlSocket = join(root, 'mariadb.sock');
  // slurmdbd reads slurmdbd.conf beside slurm.conf (SLURM_CONF) and refuses one others can read.
  const dbdConf = join(root, 'slurmdbd.conf');
  writeFileSync(
    dbdConf,
    [
      `DbdHost=${node}`,
      'DbdAddr=127.0.0.1',
      `DbdPort=${dbdPort}`,
      'SlurmUser=root',
      'AuthType=auth/munge',
      `AuthInfo=socket=${socket}`,
      `PidFile=${join(root, 'slurmdbd.pid')}`,
      `LogFile=${join(root, 'log', 'slurmdbd.log')}`,
      'StorageType=accounting_storage/mysql',
      'StorageHost=127.0.0.1',
      `StoragePort=${sqlPort}`,
      `StorageUser=${SQL_USER}`,
      `StoragePass=${SQL_PASS}`,
      'StorageLoc=slurm_acct_db',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
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
      // Usage sampled every second, so that jobs of a few seconds have MaxRSS and TotalCPU.
      'JobAcctGatherType=jobacct_gather/linux',
      'JobAcctGatherFrequency=task=1',
      'AccountingStorageType=accounting_storage/slurmdbd',
      'AccountingStorageHost=127.0.0.1',
      `AccountingStoragePort=${dbdPort}`,
      // Connections to slurmdbd take their MUNGE socket from here, not from AuthInfo.
      `AccountingStoragePass=${socket}`,
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
  const run = (command: string, args: string[]) =>
    spawnSync(command, args, { timeout: 20_000, env: { ...process.env, ...env } });
  const sql = (statement: string) => run('mariadb', [`--socket=${sqlSocket}`, '-uroot', '-e', statement]);
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
    // MariaDB for slurmdbd: a fresh datadir, root over the private socket, slurmdbd's user over TCP.
    const dbDir = join(root, 'db');
    const installed = run('mariadb-install-db', ['--user=root', `--datadir=${dbDir}`, '--skip-test-db']);
    if (installed.status !== 0) throw new Error(`mariadb-install-db failed: ${installed.stderr?.toString()}`);
    const sqlPid = join(root, 'mariadbd.pid');
    // mariadbd stays in the foreground; detached with its output in its own log.
    spawn(
      '/usr/sbin/mariadbd',
      [
        '--no-defaults',
        '--user=root',
        `--datadir=${dbDir}`,
        `--socket=${sqlSocket}`,
        '--bind-address=127.0.0.1',
        `--port=${sqlPort}`,
        `--pid-file=${sqlPid}`,
        `--log-error=${join(root, 'log', 'mariadbd.log')}`,
      ],
      { detached: true, stdio: 'ignore' },
    ).unref();
    await until('mariadbd wrote its PID', () => pidOf(sqlPid) !== null, 20_000);
    pids.push(pidOf(sqlPid)!);
    await until('mariadbd answered', () => sql('SELECT 1').status === 0, 20_000);
    const granted = sql(
      `CREATE USER '${SQL_USER}'@'127.0.0.1' IDENTIFIED BY '${SQL_PASS}'; GRANT ALL ON slurm_acct_db.* TO '${SQL_USER}'@'127.0.0.1';`,
    );
    if (granted.status !== 0) throw new Error(`MariaDB user for slurmdbd: ${granted.stderr?.toString()}`);
    daemon('/usr/sbin/slurmdbd', [], join(root, 'slurmdbd.pid'));
    await until('slurmdbd wrote its PID', () => pidOf(join(root, 'slurmdbd.pid')) !== null, 15_000);
    pids.push(pidOf(join(root, 'slurmdbd.pid'))!);
    // slurmctld reports to slurmdbd only for a cluster it knows.
    let sacctmgr = '';
    await until(
      'sacctmgr registered the cluster',
      () => {
        const r = run('sacctmgr', ['-i', 'add', 'cluster', 'laneway']);
        sacctmgr = `${r.stdout?.toString() ?? ''}${r.stderr?.toString() ?? ''}`;
        return r.status === 0;
      },
      30_000,
    ).catch((err: Error) => {
      const log = join(root, 'log', 'slurmdbd.log');
      const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-8).join('\n') : '';
      throw new Error(`${err.message}: ${sacctmgr}\n${tail}`);
    });
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
    sacct: (fields: string[]) => sacct(fields, ['-X']),
    sacctSteps: (fields: string[]) => sacct(fields, []),
    stop,
  };
  function sacct(fields: string[], extra: string[]) {
    const r = run('sacct', [
      '-a',
      ...extra,
      '--starttime=now-1days',
      '--parsable2',
      '--noheader',
      `--format=${fields.join(',')}`,
    ]);
    if (r.status !== 0) throw new Error(`sacct failed: ${r.stderr?.toString()}`);
    return r.stdout
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((line) => Object.fromEntries(line.split('|').map((v, i) => [fields[i]!, v])));
  }
}
