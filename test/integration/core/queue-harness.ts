/** A real service, a signed-in session (file token store) and a queue over a temp state folder. */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ServiceClient } from '../../../src/main/core/service-client/service-client';
import { openPlainFileStore } from '../../../src/main/core/session/file-token-store';
import { Session } from '../../../src/main/core/session/session';
import { JobStore } from '../../../src/main/core/uploads/job-store';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { UploadQueue, type UploadQueueOptions } from '../../../src/main/core/uploads/upload-queue';
import { tempDir } from '../../helpers/temp';
import type { TestService } from '../../helpers/test-service';

/** The first account of the service, as setupAccount makes it and openQueue signs in. */
export const FIRST_ACCOUNT = { username: 'ada', password: 'correct horse' };

/** Creates the first account on a fresh service. */
export async function setupAccount(
  service: { url: string },
  username = FIRST_ACCOUNT.username,
  password = FIRST_ACCOUNT.password,
): Promise<void> {
  const res = await fetch(`${service.url}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, email: `${username}@lab.test`, name: username }),
  });
  if (res.status !== 201 && res.status !== 409) throw new Error(`setup answered ${res.status}`);
}

/** A FASTQ file of about `records` records (gzipped when the name ends in .gz), random content. */
export function writeFastq(path: string, records: number, seed = randomBytes(4).toString('hex')): string {
  const bases = 'ACGT';
  const lines: string[] = [];
  const rnd = randomBytes(records * 50);
  for (let i = 0; i < records; i++) {
    let seq = '';
    for (let j = 0; j < 50; j++) seq += bases[rnd[i * 50 + j]! & 3];
    lines.push(`@read_${i} seed=${seed}`, seq, '+', 'I'.repeat(50));
  }
  const text = Buffer.from(`${lines.join('\n')}\n`);
  writeFileSync(path, path.endsWith('.gz') ? gzipSync(text) : text);
  return path;
}

export function sha256Of(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export interface QueueHarness {
  queue: UploadQueue;
  session: Session;
  client: ServiceClient;
  state: string;
  close(): Promise<void>;
}

/** Opens a queue against the service, signed in as the given user. */
export async function openQueue(
  service: Pick<TestService, 'url'>,
  options: Partial<UploadQueueOptions> & {
    timeoutMs?: number;
    /** The queue's store over its database (a test's store with an injected fault). */
    storeFor?: (db: ReturnType<typeof openQueueDb>) => JobStore;
  } = {},
  state = tempDir('laneway-queue-').path,
): Promise<QueueHarness> {
  const anon = new ServiceClient({ baseUrl: service.url });
  const session = new Session({
    keychainService: 'Laneway test',
    store: openPlainFileStore(join(state, 'tokens.json')),
    client: () => anon,
  });
  await session.login(FIRST_ACCOUNT.username, FIRST_ACCOUNT.password);
  const client = new ServiceClient({ baseUrl: service.url, auth: session, timeoutMs: options.timeoutMs ?? 5_000 });
  const db = openQueueDb(state);
  const queue = new UploadQueue({
    store: options.storeFor?.(db) ?? new JobStore(db),
    connection: () => ({ profileId: 'local', client }),
    chunkSize: 64 * 1024,
    ...options,
  });
  queue.start();
  return {
    queue,
    session,
    client,
    state,
    async close() {
      await queue.stop();
      db.close();
      await client.close();
      await anon.close();
    },
  };
}
