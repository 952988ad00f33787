/**
 * The desktop core's parts over a state folder, as the app builds them for a Flow profile: the
 * session manager (with the Flow upload intents), the resumable queue and the watchers. Shared by
 * the Flow profile's core tests so that both build the core the same way.
 */
import { join } from 'node:path';
import { RunStore } from '../../../src/main/core/runs/run-store';
import { openPlainFileStore } from '../../../src/main/core/session/file-token-store';
import { SessionManager } from '../../../src/main/core/session/session-manager';
import { flowUploadIntents } from '../../../src/main/core/uploads/flow-intents';
import { JobStore } from '../../../src/main/core/uploads/job-store';
import type { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import type { SendWindow } from '../../../src/main/core/uploads/send-window';
import { UploadQueue } from '../../../src/main/core/uploads/upload-queue';
import { WatcherService } from '../../../src/main/core/watchers/watcher-service';
import { FIRST_ACCOUNT } from './queue-harness';

export interface FlowCoreOptions {
  chunkSize: number;
  onProgress?: (jobs: JobStore) => void;
  /** Every event the queue emits (job and group changes, progress), as the app's dispatcher gets them. */
  onEvent?: (event: string, payload: unknown) => void;
  /** The queue's send window (default: one sized to the link). */
  sendWindow?: SendWindow;
  /** The watchers' timings (defaults: the app's). */
  watcherTimings?: { reconcileMs: number; debounceMs: number; followPoll: { minMs: number; maxMs: number } };
}

export function openFlowCore(stateDir: string, db: ReturnType<typeof openQueueDb>, options: FlowCoreOptions) {
  const jobs = new JobStore(db);
  const sessions = new SessionManager({
    stateDir,
    tokenStore: { store: openPlainFileStore(join(stateDir, 'tokens.json')), note: null },
    embeddedUrl: () => null,
    flowIntents: flowUploadIntents(jobs),
  });
  const queue = new UploadQueue({
    store: jobs,
    connection: () => {
      const client = sessions.client();
      return client ? { profileId: sessions.activeProfileId(), client } : null;
    },
    chunkSize: options.chunkSize,
    progressIntervalMs: 0,
    emit: (event, payload) => {
      options.onEvent?.(event, payload);
      if (event === 'uploads:progress') options.onProgress?.(jobs);
    },
    ...(options.sendWindow ? { sendWindow: options.sendWindow } : {}),
  });
  const watchers = new WatcherService({
    runs: new RunStore(db),
    queue,
    client: () => sessions.client(),
    ...options.watcherTimings,
  });
  return { jobs, sessions, queue, watchers };
}

/**
 * Adds the Flow profile for `serviceUrl`'s `/flow/api` (Laneway's own Flow mount), makes it the
 * active one and signs in as the service's first account; returns the profile.
 */
export async function signInOverFlow(sessions: SessionManager, serviceUrl: string) {
  const profile = await sessions.addProfile({
    name: 'Flow',
    kind: 'remote',
    wire: 'flow',
    url: `${serviceUrl}/flow/api`,
    activate: true,
  });
  await sessions.login(FIRST_ACCOUNT.username, FIRST_ACCOUNT.password);
  return profile;
}
