/**
 * `laneway backup` and `laneway restore`: a whole installation (the service's data folder, and
 * the app's upload queue and profiles when they sit beside it) to one archive and back, safe
 * while the service runs (src/service/backup/).
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultUserDataDir, serviceDataDir } from '../../main/core/headless';
import { backupInstallation } from '../../service/backup/backup';
import { restoreInstallation } from '../../service/backup/restore';
import { UsageError, type Command } from './command';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const backupCommand: Command = {
  help: [
    "Writes FILE (a .tar.gz): the service's database (SQLite's online backup: consistent while the",
    "service runs), its stored files, and the app folder's uploads.sqlite and profiles.json.",
    '',
    '  --to FILE    the archive to write (written aside, then renamed: it exists only whole)',
    "  --data DIR   the service's data folder (default: the app's, HOME/service)   [LANEWAY_DATA]",
    "  --home DIR   the app's folder whose upload queue and profiles go too (default: DIR's parent",
    '               when it holds them)',
    '  --no-home    leave the app folder out (a lab server)',
  ].join('\n'),
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        to: { type: 'string' },
        data: { type: 'string', default: process.env.LANEWAY_DATA },
        home: { type: 'string' },
        'no-home': { type: 'boolean', default: false },
      },
    });
    if (!values.to) throw new UsageError('--to FILE is required');
    const dataDir = values.data ?? serviceDataDir(defaultUserDataDir());
    const manifest = await backupInstallation({
      dataDir,
      to: values.to,
      homeDir: values['no-home'] ? null : (values.home ?? undefined),
    });
    process.stdout.write(
      `Backed up ${manifest.data_dir}${manifest.home_dir ? ` and ${manifest.home_dir}'s upload queue and profiles` : ''} to ${values.to} (${mb(statSync(values.to).size)})\n`,
    );
    return 0;
  },
};

export const restoreCommand: Command = {
  help: [
    'Restores a `laneway backup` archive into DIR, which must be new or empty (with --force, what',
    'is there is kept aside as DIR.before-restore-<time>). Refuses while a service runs on DIR.',
    '',
    '  --from FILE  the archive',
    '  --data DIR   the data folder to restore into                          [LANEWAY_DATA]',
    "  --home DIR   where the app's upload queue and profiles go (default: DIR's parent, when the",
    '               backup holds them)',
    '  --force      restore over a folder that is not empty (keeping it aside)',
  ].join('\n'),
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        from: { type: 'string' },
        data: { type: 'string', default: process.env.LANEWAY_DATA },
        home: { type: 'string' },
        force: { type: 'boolean', default: false },
      },
    });
    if (!values.from) throw new UsageError('--from FILE is required');
    if (!values.data) throw new UsageError('--data DIR is required');
    const done = await restoreInstallation({
      from: values.from,
      dataDir: values.data,
      homeDir: values.home,
      force: values.force,
    });
    process.stdout.write(
      `Restored the backup of ${done.manifest.created} into ${done.dataDir}` +
        (done.homeDir ? ` (upload queue and profiles in ${done.homeDir})` : '') +
        (done.keptAs ? `; the folder that was there is kept as ${done.keptAs}` : '') +
        '\n',
    );
    return 0;
  },
};
