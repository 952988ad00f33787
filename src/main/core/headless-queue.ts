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

export interface HeadlessQueueOptions {
  /** The service origin, already normalised. */
  url: string;
  username: string;
  /** Without one, the stored refresh token signs in. */
  password?: string;
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
  const { url, username, password, stateDir } = options;
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
      await anon.close();
    },
  };
}
