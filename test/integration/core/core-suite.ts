/**
 * The file-wide set-up of the desktop core's integration tests: a real service with the first
 * account, a temp folder for instrument runs and, where the file shares one, a queue signed in
 * to the service. Also the wait those tests use for the core's background work.
 */
import { afterAll, beforeAll } from 'vitest';
import { RunStore } from '../../../src/main/core/runs/run-store';
import { WatcherService, type WatcherServiceOptions } from '../../../src/main/core/watchers/watcher-service';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { FIRST_ACCOUNT, openQueue, setupAccount, type QueueHarness } from './queue-harness';

export interface CoreSuite {
  /** The service (from the file's beforeAll on). */
  readonly service: TestService;
  /** The file's shared queue (only with `queue: true`). */
  readonly h: QueueHarness;
  /** A folder removed after the file. */
  readonly root: string;
  /**
   * Watched folders on the shared queue that never rescan on a timer (the tests wait on the
   * watcher's own events); `options` adds to or overrides that.
   */
  watchers(options?: Partial<WatcherServiceOptions>): WatcherService;
  /** The environment of a `laneway` CLI run: the service, the suite's account, a home in `root`. */
  cliEnv(): Record<string, string>;
}

/** Registers the file's beforeAll and afterAll (call it at the top level of a test file). */
export function coreSuite(options: { queue?: boolean; prefix?: string } = {}): CoreSuite {
  const root = tempDir(options.prefix);
  let service: TestService | undefined;
  let h: QueueHarness | undefined;
  beforeAll(async () => {
    service = await startTestService();
    await setupAccount(service);
    if (options.queue) h = await openQueue(service);
  });
  afterAll(async () => {
    await h?.close();
    await service?.stop();
    root.remove();
  });
  const running = (): TestService => {
    if (!service) throw new Error('the service starts in beforeAll');
    return service;
  };
  const queue = (): QueueHarness => {
    if (!h) throw new Error(options.queue ? 'the queue opens in beforeAll' : 'this file has no shared queue');
    return h;
  };
  return {
    get service() {
      return running();
    },
    get h() {
      return queue();
    },
    root: root.path,
    watchers(more = {}) {
      const shared = queue().queue;
      return new WatcherService({ runs: new RunStore(shared.store.db), queue: shared, reconcileMs: 600_000, ...more });
    },
    cliEnv() {
      return {
        LANEWAY_URL: running().url,
        LANEWAY_USERNAME: FIRST_ACCOUNT.username,
        LANEWAY_PASSWORD: FIRST_ACCOUNT.password,
        LANEWAY_HOME: root.path,
      };
    },
  };
}

/** Resolves once `check()` holds (looked at every 50 ms); fails after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
