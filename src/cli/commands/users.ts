/**
 * `laneway users`: manage accounts of a service data folder directly (no running service
 * needed): the first account on a fresh installation, or a rescue when no admin can log in.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultUserDataDir, serviceDataDir } from '../../main/core/headless';
import { systemClock } from '../../service/context';
import { openDatabase } from '../../service/db/database';
import { serviceHooks } from '../../service/services';
import { ApiError } from '../../service/http/api-error';
import { PasswordPool } from '../../service/identity/password-pool';
import { createUser, type AccountContext } from '../../service/identity/users.commands';
import { presentUser } from '../../service/identity/users.presenter';
import { countUsers, type UserRow } from '../../service/auth/users.store';
import { UsageError, type Command } from './command';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** A context over the data folder's database and a password pool of its own, enough for the account commands. */
function openContext(dataDir: string): AccountContext {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return {
    db: openDatabase(join(dataDir, 'laneway.sqlite')),
    hooks: serviceHooks(),
    config: { dataDir, host: '127.0.0.1', port: 0, smtpUrl: null, publicUrl: null },
    clock: systemClock,
    log: (message) => process.stderr.write(`${message}\n`),
    onClose: () => {},
    parts: { passwords: new PasswordPool() },
  };
}

async function add(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string', default: process.env.LANEWAY_DATA },
      username: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      admin: { type: 'boolean', default: false },
      'can-run-pipelines': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.username) throw new UsageError('--username is required');
  if (!values.email) throw new UsageError('--email is required');
  const password = values['password-stdin'] ? await readStdin() : process.env.LANEWAY_PASSWORD;
  if (!password) throw new UsageError('give the password on stdin with --password-stdin, or in LANEWAY_PASSWORD');
  const ctx = openContext(values.data ?? serviceDataDir(defaultUserDataDir()));
  try {
    // The first account of an installation is an admin who may run pipelines, as with /api/setup.
    const first = countUsers(ctx.db) === 0;
    const row: UserRow = await createUser(ctx, {
      username: values.username,
      password,
      email: values.email,
      name: values.name ?? values.username,
      isAdmin: first || values.admin!,
      canRunPipelines: first || values['can-run-pipelines']!,
    });
    const user = presentUser(row);
    if (values.json) process.stdout.write(`${JSON.stringify({ event: 'user-created', user })}\n`);
    else process.stdout.write(`Created ${user.username}${user.is_admin ? ' (admin)' : ''}\n`);
    return 0;
  } catch (err) {
    if (err instanceof ApiError) {
      const fields = (err.extras.fields ?? {}) as Record<string, string>;
      const detail = Object.entries(fields).map(([k, v]) => `${k}: ${v}`);
      process.stderr.write(`laneway users add: ${[err.message, ...detail].join('; ')}\n`);
      return 1;
    }
    throw err;
  } finally {
    await ctx.parts.passwords.close();
    ctx.db.close();
  }
}

function list(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: { data: { type: 'string', default: process.env.LANEWAY_DATA } },
  });
  const ctx = openContext(values.data ?? serviceDataDir(defaultUserDataDir()));
  try {
    const rows = ctx.db.prepare('SELECT * FROM users ORDER BY id').all() as UserRow[];
    for (const u of rows.map(presentUser)) {
      const flags = [u.is_admin && 'admin', u.can_run_pipelines && 'pipelines', u.disabled && 'disabled'].filter(
        Boolean,
      );
      process.stdout.write(`${u.username}\t${u.email}\t${u.name}\t${flags.join(',')}\n`);
    }
    return 0;
  } finally {
    ctx.db.close();
  }
}

export const usersCommand: Command = {
  help: [
    'users add   creates an account (the first one of an installation is an admin who may run pipelines)',
    'users list  lists the accounts',
    '',
    "  --data DIR            the service data folder       [LANEWAY_DATA] (default: the app's)",
    '  --username U          login name',
    '  --email E             e-mail address (invitations to it are handed to the account)',
    '  --name N              display name (default: the username)',
    '  --password-stdin      read the password from stdin  (else LANEWAY_PASSWORD)',
    '  --admin               make the account an administrator',
    '  --can-run-pipelines   allow the account to run pipelines',
    '  --json                print {"event":"user-created","user":...}',
  ].join('\n'),
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'add') return add(rest);
    if (sub === 'list') return list(rest);
    throw new UsageError('expected "users add" or "users list"');
  },
};
