import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NotificationWatcher } from '../../../src/main/core/notifications/notification-watcher';
import { ServiceClient } from '../../../src/main/core/service-client/service-client';
import type { ServiceNotice } from '../../../src/shared/desktop-api/notification-schemas';
import { startTestService, type TestService } from '../../helpers/test-service';
import { call, setupAdmin, type Session } from '../identity/helpers';
import { LIFECYCLE_MANIFESTS } from './lifecycle-fixtures';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe("the desktop core's notification watcher against the real service", () => {
  let service: TestService;
  let admin: Session;
  let client: ServiceClient;
  let steps: number;

  beforeAll(async () => {
    process.env.LANEWAY_PIPELINES_DIR = LIFECYCLE_MANIFESTS;
    service = await startTestService();
    admin = await setupAdmin(service);
    client = new ServiceClient({
      baseUrl: service.url,
      auth: { token: async () => admin.token, invalidate: () => {} },
    });
    const list = (await call(service, 'GET', '/api/pipelines', { token: admin.token })).body as unknown as Array<{
      name: string;
      versions: Array<{ id: number; version: string }>;
    }>;
    steps = list.find((p) => p.name === 'Test Steps')!.versions.find((v) => v.version === '2.0.0')!.id;
  });
  afterAll(async () => {
    await client.close();
    await service.stop();
    delete process.env.LANEWAY_PIPELINES_DIR;
  });

  const runToEnd = async (parameters: Record<string, unknown>) => {
    const id = (
      await call(service, 'POST', `/api/pipelines/versions/${steps}/run`, { token: admin.token, body: { parameters } })
    ).body.id as number;
    for (;;) {
      const e = (await call(service, 'GET', `/api/executions/${id}`, { token: admin.token })).body;
      if (['completed', 'failed'].includes(e.status as string)) return id;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('emits notifications:new once per new notification, never the backlog, and starts afresh after reset', async () => {
    const emitted: ServiceNotice[] = [];
    let signedIn = true;
    const watcher = new NotificationWatcher({
      client: () => (signedIn ? client : null),
      emit: (event, payload) => {
        expect(event).toBe('notifications:new');
        emitted.push(payload);
      },
      log: () => {},
    });
    // A backlog from before the app looked: not replayed.
    await runToEnd({ steps: 1 });
    await watcher.poll();
    expect(emitted).toEqual([]);

    const failed = await runToEnd({ steps: 1, fail: true });
    await watcher.poll();
    expect(emitted).toEqual([
      expect.objectContaining({
        kind: 'execution_ended',
        subject: 'Execution Test Steps 2.0.0 failed',
        data: expect.objectContaining({ execution_id: failed, status: 'failed' }),
      }),
    ]);
    await watcher.poll();
    expect(emitted).toHaveLength(1);

    // Signed out: nothing is asked; after a new sign-in the first look sets the start again.
    signedIn = false;
    await runToEnd({ steps: 1 });
    await watcher.poll();
    signedIn = true;
    watcher.reset();
    await watcher.poll();
    expect(emitted).toHaveLength(1);
    const done = await runToEnd({ steps: 1 });
    await watcher.poll();
    expect(emitted.map((n) => n.data.execution_id)).toEqual([failed, done]);
  });

  it('counts from the sign-in itself: an execution that ends before the next tick is told', async () => {
    const emitted: ServiceNotice[] = [];
    const watcher = new NotificationWatcher({
      client: () => client,
      emit: (_event, payload) => emitted.push(payload),
      log: () => {},
    });
    await runToEnd({ steps: 1 });
    // A sign-in: the backlog above is not new; what ends from now on is, even before any tick.
    watcher.reset();
    const ended = await runToEnd({ steps: 1, fail: true });
    await watcher.poll();
    expect(emitted.map((n) => n.data.execution_id)).toEqual([ended]);
    watcher.stop();
  });
});
