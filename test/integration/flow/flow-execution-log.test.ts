/**
 * An execution's log on the Flow mount, read by absolute byte offset (FLOW-WIRE.md P1-18,
 * `GET /executions/{id}?log=N`), for a log longer than the detail's window of latest entries
 * (200): a real run of the fixture worker writes 450 step lines while a poller reads from the
 * offset it holds, as flowbio's agents and Laneway's desktop do. The pieces join to the whole log,
 * every line once and in order; the desktop's Flow client (`/api/executions/{id}/logs?after=`)
 * pages the same lines by those offsets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowServiceClient } from '../../../src/main/core/service-client/flow/flow-service-client';
import { FlowState } from '../../../src/main/core/service-client/flow/flow-state';
import { getExecutionsByIdLogs } from '../../../src/shared/service-api/endpoints/executions';
import { FIXTURE_MANIFESTS, startKit, type Kit } from '../pipelines/pipeline-kit';

const STEPS = 450;
let kit: Kit;

beforeAll(async () => {
  kit = await startKit(FIXTURE_MANIFESTS);
});
afterAll(async () => {
  await kit.stop();
});

describe("the Flow mount's execution log", () => {
  it('keeps byte offsets stable on a log longer than the window, read as it grows', async () => {
    const base = `${kit.service.url}/flow/api`;
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin password 1' }),
    });
    const { token } = (await login.json()) as { token: string };
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as { status: string; log: string };
    };
    const pipelines = (
      await kit.api<Array<{ name: string; versions: Array<{ id: number; version: string }> }>>(
        '/api/pipelines',
        kit.adminToken,
      )
    ).body;
    const version = pipelines.find((p) => p.name === 'Test Steps')!.versions.find((v) => v.version === '2.0.0')!;
    const run = await kit.run(kit.adminToken, version.id, {
      name: 'long log',
      parameters: { steps: STEPS, delay_ms: 2 },
    });
    expect(run.status).toBe(201);
    const id = run.body.id as number;

    // The poller holds an offset and asks for what follows, until the run ended and nothing follows.
    let offset = 0;
    let joined = '';
    for (let ended = false; ;) {
      const e = await get(`/executions/${id}?log=${offset}&include=log&include=status`);
      joined += e.log;
      offset += Buffer.byteLength(e.log, 'utf8');
      if (ended && e.log === '') break;
      ended = ['OK', 'ERROR', 'CANCELED'].includes(e.status);
    }
    const whole = (await get(`/executions/${id}`)).log;
    expect(joined).toBe(whole);
    const steps = whole.split('\n').filter((l) => /^step \d+ of \d+$/.test(l));
    expect(steps).toEqual(Array.from({ length: STEPS }, (_, i) => `step ${i + 1} of ${STEPS}`));
    // An offset past the end answers nothing; one inside a line answers the rest of it.
    expect((await get(`/executions/${id}?log=${offset + 10}`)).log).toBe('');
    const at = Buffer.from(whole).indexOf('step 300 of');
    expect((await get(`/executions/${id}?log=${at + 5}`)).log.startsWith(`300 of ${STEPS}\nstep 301 of`)).toBe(true);

    // The desktop's Flow client pages the log by the same offsets, a hundred lines at a time.
    const client = new FlowServiceClient({
      baseUrl: base,
      auth: { token: async () => token, invalidate: () => {} },
      state: new FlowState(null),
    });
    const lines: string[] = [];
    let after = 0;
    for (;;) {
      const page = await client.call(getExecutionsByIdLogs, { params: { id }, query: { after, limit: 100 } });
      lines.push(...page.items.map((l) => l.message));
      expect(page.next).toBe(page.items.at(-1)?.id ?? after);
      after = page.next;
      if (page.complete) break;
      expect(page.items.length).toBe(100);
    }
    await client.close();
    expect(lines.join('\n')).toBe(whole);
  }, 180_000);
});
