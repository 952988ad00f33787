/**
 * `laneway backup`: a consistent copy of a Laneway installation taken while the service runs.
 * The databases go through SQLite's online backup API (better-sqlite3's `.backup()`), which
 * copies a consistent snapshot while other connections keep writing; the stored files are
 * copied after the snapshot. Stored files are content-addressed (store/ab/<sha256>) and never
 * change once written, so every file the snapshot names is there to copy (a file deleted in
 * the seconds between is the one exception, and the restored service reports it missing).
 * In-progress uploads, pipeline work folders, lanes being demultiplexed and the log are left
 * out: the snapshot's unfinished uploads start again, and work folders are rebuilt.
 *
 * The archive is a gzip'd tar (the `tar` every supported OS ships) of:
 * `manifest.json`, `service/` (the data folder) and, when the app's folder is included,
 * `home/uploads.sqlite` (the upload queue and watched folders) and `home/profiles.json`.
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { APP_VERSION } from '../../shared/version';
import { snapshotDatabase as snapshot } from './backup.store';

const run = promisify(execFile);

/** Top-level entries of the data folder a backup leaves out, and why. */
const SKIPPED = new Set([
  // Copied through the online backup API instead.
  'laneway.sqlite',
  'laneway.sqlite-wal',
  'laneway.sqlite-shm',
  'laneway.sqlite-journal',
  // Work in progress: rebuilt or restarted after a restore.
  'uploads',
  'executions',
  'lanes',
  'reports-work',
  'conda',
  // This installation's own state, not the data.
  'service.running',
  'service.stopped',
]);
const isLog = (name: string) => /^service\.log(\.\d+)?$/.test(name);

export const BACKUP_FORMAT = 'laneway-backup';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  format_version: 1;
  app_version: string;
  created: string;
  data_dir: string;
  home_dir: string | null;
  contents: string[];
}

/** The app's folder that holds the data folder `HOME/service`, when it looks like one. */
export function homeOfDataDir(dataDir: string): string | null {
  const home = dirname(resolve(dataDir));
  return existsSync(join(home, 'uploads.sqlite')) || existsSync(join(home, 'profiles.json')) ? home : null;
}

/** Writes the backup archive `to`; answers what it holds. */
export async function backupInstallation(options: {
  dataDir: string;
  homeDir?: string | null;
  to: string;
  now?: Date;
}): Promise<BackupManifest> {
  const dataDir = resolve(options.dataDir);
  const to = resolve(options.to);
  if (!existsSync(join(dataDir, 'laneway.sqlite')))
    throw new Error(`${dataDir} is not a Laneway data folder (no laneway.sqlite)`);
  const homeDir = options.homeDir === undefined ? homeOfDataDir(dataDir) : options.homeDir;
  mkdirSync(dirname(to), { recursive: true });
  const stage = mkdtempSync(join(dirname(to), '.laneway-backup-'));
  try {
    const contents: string[] = [];
    const service = join(stage, 'service');
    mkdirSync(service, { mode: 0o700 });
    // The database first: every stored file it names exists from then on.
    await snapshot(join(dataDir, 'laneway.sqlite'), join(service, 'laneway.sqlite'));
    contents.push('service/laneway.sqlite');
    for (const name of readdirSync(dataDir)) {
      if (SKIPPED.has(name) || isLog(name)) continue;
      cpSync(join(dataDir, name), join(service, name), { recursive: true, preserveTimestamps: true });
      contents.push(`service/${name}`);
    }
    if (homeDir) {
      const home = join(stage, 'home');
      mkdirSync(home, { mode: 0o700 });
      if (existsSync(join(homeDir, 'uploads.sqlite'))) {
        await snapshot(join(homeDir, 'uploads.sqlite'), join(home, 'uploads.sqlite'));
        contents.push('home/uploads.sqlite');
      }
      if (existsSync(join(homeDir, 'profiles.json'))) {
        cpSync(join(homeDir, 'profiles.json'), join(home, 'profiles.json'));
        contents.push('home/profiles.json');
      }
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      format_version: 1,
      app_version: APP_VERSION,
      created: (options.now ?? new Date()).toISOString(),
      data_dir: dataDir,
      home_dir: homeDir,
      contents,
    };
    writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // Written aside and renamed: a FILE that exists is a whole backup.
    const partial = `${to}.partial`;
    await run('tar', ['-czf', partial, '-C', stage, '.']);
    renameSync(partial, to);
    return manifest;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** The archive's size, for the command's last line. */
export function archiveBytes(path: string): number {
  return statSync(path).size;
}
