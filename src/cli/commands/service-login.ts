/**
 * What `laneway upload` and `laneway agent` share: the service URL and credentials from
 * options or the environment, sign-in (password from LANEWAY_PASSWORD or stdin, else the
 * stored refresh token), and the durable queue in the state folder. Meant to run unattended.
 */
import { join } from 'node:path';
import { defaultUserDataDir } from '../../main/core/paths';
import { ServiceClient } from '../../main/core/service-client/service-client';
import { ServiceCallError } from '../../main/core/service-client/service-error';
import { openPlainFileStore } from '../../main/core/session/file-token-store';
import { openKeytarStore } from '../../main/core/session/keytar-token-store';
import { normaliseServiceUrl } from '../../main/core/session/profiles';
import { Session } from '../../main/core/session/session';
import { chooseTokenStore } from '../../main/core/session/token-store';
import { JobStore } from '../../main/core/uploads/job-store';
import { openQueueDb } from '../../main/core/uploads/queue-db';
import { UploadQueue, type UploadQueueOptions } from '../../main/core/uploads/upload-queue';
import { UsageError } from './command';

/** Exit codes of upload and agent, as `--help` documents them. */
export const EXIT = { ok: 0, failed: 1, usage: 2, auth: 3, unreachable: 4, interrupted: 130 } as const;

export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  username: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  state: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const CONNECTION_HELP = [
  '  --url URL          service origin                              [LANEWAY_URL]',
  '  --username NAME    account                                     [LANEWAY_USERNAME]',
  '  --password-stdin   read the password from stdin                [LANEWAY_PASSWORD]',
  '                     (without a password, the refresh token stored at the last sign-in is used)',
  '  --state DIR        queue state folder; re-running with the same folder resumes, never re-sends',
  '                     (default: <user data>/cli)                  [LANEWAY_STATE]',
  '  --json             JSON lines on stdout instead of a progress bar',
  '',
  'Exit codes: 0 everything uploaded (and samples or lanes created); 1 something failed (see',
  'the message); 2 bad usage; 3 sign-in refused; 4 service unreachable; 130 interrupted.',
].join('\n');

/** Parses repeated `--metadata KEY=VALUE` options into sample metadata. */
export function parseMetadata(list: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const eq = item.indexOf('=');
    if (eq < 1) throw new UsageError(`--metadata takes KEY=VALUE, not "${item}"`);
    out[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
  }
  return out;
}

export class ExitError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export interface CliQueue {
  queue: UploadQueue;
  client: ServiceClient;
  profileId: string;
  close(): Promise<void>;
}

/** Signs in and opens the queue (not started). */
export async function openCliQueue(
  values: { url?: string; username?: string; 'password-stdin'?: boolean; state?: string },
  queueOptions: Partial<UploadQueueOptions> = {},
): Promise<CliQueue> {
  const rawUrl = values.url ?? process.env.LANEWAY_URL;
  if (!rawUrl) throw new UsageError('a service URL is required (--url or LANEWAY_URL)');
  const url = normaliseServiceUrl(rawUrl);
  const username = values.username ?? process.env.LANEWAY_USERNAME;
  if (!username) throw new UsageError('a username is required (--username or LANEWAY_USERNAME)');
  const password = values['password-stdin'] ? await readStdin() : process.env.LANEWAY_PASSWORD;
  const state = values.state ?? process.env.LANEWAY_STATE ?? join(defaultUserDataDir(), 'cli');

  const { store } = await chooseTokenStore([
    { name: 'keychain', open: () => openKeytarStore(2_000) },
    { name: 'file', open: async () => openPlainFileStore(join(state, 'tokens.json')) },
  ]).catch(() => ({ store: openPlainFileStore(join(state, 'tokens.json')) }));
  const anon = new ServiceClient({ baseUrl: url });
  const session = new Session({ keychainService: `Laneway (${url})`, store, client: () => anon });
  try {
    if (password) await session.login(username, password);
    else {
      await session.restore(username);
      if (!session.signedIn)
        throw new ExitError(
          EXIT.auth,
          `no password given and no stored sign-in for ${username} (set LANEWAY_PASSWORD or use --password-stdin)`,
        );
      await session.token();
    }
  } catch (err) {
    await anon.close();
    if (err instanceof ServiceCallError) {
      if (err.status === null) throw new ExitError(EXIT.unreachable, `${url}: ${err.message}`);
      if (err.status === 401) throw new ExitError(EXIT.auth, err.message);
    }
    throw err;
  }
  const client = new ServiceClient({ baseUrl: url, auth: session, timeoutMs: 30_000 });
  const db = openQueueDb(state);
  const queue = new UploadQueue({
    store: new JobStore(db),
    connection: () => ({ profileId: url, client }),
    ...queueOptions,
  });
  return {
    queue,
    client,
    profileId: url,
    async close() {
      await queue.stop();
      db.close();
      await client.close();
      await anon.close();
    },
  };
}
