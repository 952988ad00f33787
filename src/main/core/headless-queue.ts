/**
 * The core composed without a window, for `laneway upload` and `laneway agent`: sign-in
 * (password, else the refresh token stored at the last sign-in) and the durable queue in a
 * state folder. The CLI only gathers options and maps errors to exit codes; the wiring of the
 * session, token store, client and queue stays here, beside the desktop core's own.
 */
import { join } from 'node:path';
import { ServiceClient } from './service-client/service-client';
import { openPlainFileStore } from './session/file-token-store';
import { openKeytarStore } from './session/keytar-token-store';
import { Session } from './session/session';
import { chooseTokenStore } from './session/token-store';
import { JobStore } from './uploads/job-store';
import { openQueueDb } from './uploads/queue-db';
import { UploadQueue, type UploadQueueOptions } from './uploads/upload-queue';
import { getMe } from '../../shared/service-api/endpoints';

export interface HeadlessQueueOptions {
  /** The service origin, already normalised. */
  url: string;
  username: string;
  /** Without one, the stored refresh token signs in. */
  password?: string;
  /** An API key (LANEWAY_TOKEN): used as the bearer credential as is, no sign-in, nothing stored. */
  apiKey?: string;
  /** The queue's state folder (its database and the token file fallback). */
  stateDir: string;
  queueOptions?: Partial<UploadQueueOptions>;
}

export interface HeadlessQueue {
  queue: UploadQueue;
  client: ServiceClient;
  profileId: string;
  close(): Promise<void>;
}

/** No password was given and no sign-in is stored for this account. */
export class NoStoredSignIn extends Error {
  constructor(username: string) {
    super(`no password given and no stored sign-in for ${username} (set LANEWAY_PASSWORD or use --password-stdin)`);
    this.name = 'NoStoredSignIn';
  }
}

/** Signs in and opens the queue (not started); a refused or unreachable sign-in throws ServiceError. */
export async function openHeadlessQueue(options: HeadlessQueueOptions): Promise<HeadlessQueue> {
  const { url, username, password, stateDir, apiKey } = options;
  if (apiKey) return openQueue(options, await apiKeyClient(url, apiKey), async () => {});
  const tokenFile = join(stateDir, 'tokens.json');
  const { store } = await chooseTokenStore([
    { name: 'keychain', open: () => openKeytarStore(2_000) },
    { name: 'file', open: async () => openPlainFileStore(tokenFile) },
  ]).catch(() => ({ store: openPlainFileStore(tokenFile) }));
  const anon = new ServiceClient({ baseUrl: url });
  const session = new Session({ keychainService: `Laneway (${url})`, store, client: () => anon });
  try {
    if (password) await session.login(username, password);
    else {
      await session.restore(username);
      if (!session.signedIn) throw new NoStoredSignIn(username);
      await session.token();
    }
  } catch (err) {
    await anon.close();
    throw err;
  }
  const client = new ServiceClient({ baseUrl: url, auth: session, timeoutMs: 30_000 });
  return openQueue(options, client, () => anon.close());
}

/**
 * A client whose credential is an API key: it never changes, so a refusal is final (no
 * refresh to try). The key is checked once with /api/me so a bad one fails before any work.
 */
async function apiKeyClient(url: string, apiKey: string): Promise<ServiceClient> {
  const client = new ServiceClient({
    baseUrl: url,
    // Nothing to refresh: a refused key stays refused (the one re-send after a 401 fails too).
    auth: { token: async () => apiKey, invalidate: () => {} },
    timeoutMs: 30_000,
  });
  try {
    await client.call(getMe);
  } catch (err) {
    await client.close();
    throw err;
  }
  return client;
}

async function openQueue(
  options: HeadlessQueueOptions,
  client: ServiceClient,
  closeMore: () => Promise<void>,
): Promise<HeadlessQueue> {
  const { url, stateDir } = options;
  const db = openQueueDb(stateDir);
  const queue = new UploadQueue({
    store: new JobStore(db),
    connection: () => ({ profileId: url, client }),
    ...options.queueOptions,
  });
  return {
    queue,
    client,
    profileId: url,
    async close() {
      await queue.stop();
      db.close();
      await client.close();
      await closeMore();
    },
  };
}
