/**
 * What `laneway upload` and `laneway agent` share: the service URL and credentials from
 * options or the environment, sign-in (password from LANEWAY_PASSWORD or stdin, else the
 * stored refresh token), and the durable queue in the state folder. Meant to run unattended.
 */
import { join } from 'node:path';
import {
  defaultUserDataDir,
  NoStoredSignIn,
  normaliseServiceUrl,
  openHeadlessQueue,
  type HeadlessQueue,
  type UploadQueueOptions,
} from '../../main/core/headless';
import { ServiceError } from '../../shared/service-client/service-error';
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
  '  LANEWAY_TOKEN      an API key (Account > API keys): used instead of a sign-in, nothing stored',
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

export type CliQueue = HeadlessQueue;

/** Signs in and opens the queue (not started), with the failures mapped to exit codes. */
export async function openCliQueue(
  values: { url?: string; username?: string; 'password-stdin'?: boolean; state?: string },
  queueOptions: Partial<UploadQueueOptions> = {},
): Promise<CliQueue> {
  const rawUrl = values.url ?? process.env.LANEWAY_URL;
  if (!rawUrl) throw new UsageError('a service URL is required (--url or LANEWAY_URL)');
  const url = normaliseServiceUrl(rawUrl);
  // An API key stands for its account: no username, password or stored sign-in then.
  const apiKey = process.env.LANEWAY_TOKEN?.trim() || undefined;
  const username = values.username ?? process.env.LANEWAY_USERNAME ?? (apiKey ? '' : undefined);
  if (username === undefined) {
    throw new UsageError('a username is required (--username or LANEWAY_USERNAME), or an API key in LANEWAY_TOKEN');
  }
  const password = apiKey ? undefined : values['password-stdin'] ? await readStdin() : process.env.LANEWAY_PASSWORD;
  const stateDir = values.state ?? process.env.LANEWAY_STATE ?? join(defaultUserDataDir(), 'cli');
  try {
    return await openHeadlessQueue({ url, username, password, stateDir, queueOptions, apiKey });
  } catch (err) {
    if (err instanceof NoStoredSignIn) throw new ExitError(EXIT.auth, err.message);
    if (err instanceof ServiceError) {
      if (err.status === null) throw new ExitError(EXIT.unreachable, `${url}: ${err.message}`);
      if (err.status === 401) throw new ExitError(EXIT.auth, err.message);
    }
    throw err;
  }
}
