/**
 * `laneway restore`: puts a `laneway backup` archive back as a data folder (and, when the
 * backup holds them, the app's upload queue and profiles). It refuses to write over a data
 * folder a service is running on, checks the restored database before it takes the folder's
 * place, and with `--force` keeps what was there as `DIR.before-restore-<time>`.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { BACKUP_FORMAT, type BackupManifest } from './backup';
import { integrityCheck } from './backup.store';

const run = promisify(execFile);

/** The pid in the data folder's running marker, when that process is alive. */
function runningServicePid(dataDir: string): number | null {
  try {
    const marker = JSON.parse(readFileSync(join(dataDir, 'service.running'), 'utf8')) as { pid?: unknown };
    if (typeof marker.pid !== 'number') return null;
    process.kill(marker.pid, 0);
    return marker.pid;
  } catch {
    return null;
  }
}

const nonEmpty = (dir: string) => existsSync(dir) && readdirSync(dir).length > 0;

export async function restoreInstallation(options: {
  from: string;
  dataDir: string;
  homeDir?: string | null;
  force?: boolean;
  now?: Date;
}): Promise<{ manifest: BackupManifest; dataDir: string; homeDir: string | null; keptAs: string | null }> {
  const dataDir = resolve(options.dataDir);
  if (!existsSync(options.from)) throw new Error(`${options.from} does not exist`);
  const pid = runningServicePid(dataDir);
  if (pid !== null) throw new Error(`A Laneway service (pid ${pid}) is running on ${dataDir}: stop it first`);
  if (nonEmpty(dataDir) && !options.force)
    throw new Error(`${dataDir} is not empty: restore into a new folder, or add --force to keep it aside`);
  mkdirSync(dirname(dataDir), { recursive: true });
  const stage = mkdtempSync(join(dirname(dataDir), '.laneway-restore-'));
  try {
    await run('tar', ['-xzf', resolve(options.from), '-C', stage]);
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(readFileSync(join(stage, 'manifest.json'), 'utf8')) as BackupManifest;
    } catch {
      throw new Error(`${options.from} is not a Laneway backup (no manifest.json)`);
    }
    if (manifest.format !== BACKUP_FORMAT) throw new Error(`${options.from} is not a Laneway backup`);
    const check = integrityCheck(join(stage, 'service', 'laneway.sqlite'));
    if (check !== 'ok') throw new Error(`The backup's database is damaged: ${check}`);
    let keptAs: string | null = null;
    if (existsSync(dataDir)) {
      if (nonEmpty(dataDir)) {
        keptAs = `${dataDir}.before-restore-${(options.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}`;
        renameSync(dataDir, keptAs);
      } else rmSync(dataDir, { recursive: true });
    }
    renameSync(join(stage, 'service'), dataDir);
    const homeDir =
      options.homeDir === undefined ? (existsSync(join(stage, 'home')) ? dirname(dataDir) : null) : options.homeDir;
    if (homeDir && existsSync(join(stage, 'home'))) {
      mkdirSync(homeDir, { recursive: true, mode: 0o700 });
      for (const name of ['uploads.sqlite', 'profiles.json']) {
        if (!existsSync(join(stage, 'home', name))) continue;
        // A queue database's own WAL files belong to the one replaced.
        for (const side of ['-wal', '-shm']) rmSync(join(homeDir, `${name}${side}`), { force: true });
        cpSync(join(stage, 'home', name), join(homeDir, name));
      }
    }
    return { manifest, dataDir, homeDir, keptAs };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
