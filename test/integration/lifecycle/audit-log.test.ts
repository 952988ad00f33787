import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIXTURE_MANIFESTS, startKit, type Kit } from '../pipelines/pipeline-kit';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

type Entry = {
  id: number;
  at: string;
  user: string | null;
  action: string;
  resource: { kind: string; id: number | null; name: string | null };
  details: Record<string, unknown>;
};
type AuditPage = { count: number; page: number; per_page: number; items: Entry[] };

const READS = '@r1\nACGTACGTAC\n+\nIIIIIIIIII\n@r2\nTTGCAAGGCC\n+\nIIIIIIIIII\n';

describe('audit log: who created, shared, ran, cancelled, downloaded and deleted what, and when', () => {
  let kit: Kit;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  let steps: number;
  let t0: string;
  let tMid: string;
  const ids: Record<string, number> = {};

  const audit = (query: string, token = kit.adminToken) => kit.api<AuditPage>(`/api/audit${query}`, token);

  beforeAll(async () => {
    kit = await startKit(FIXTURE_MANIFESTS);
    const list = (
      await kit.api<Array<{ name: string; versions: Array<{ id: number; version: string }> }>>(
        '/api/pipelines',
        kit.adminToken,
      )
    ).body;
    steps = list.find((p) => p.name === 'Test Steps')!.versions.find((v) => v.version === '2.0.0')!.id;
    t0 = new Date().toISOString();
    alice = await kit.createUser('alice');
    bob = await kit.createUser('bob', false);

    // alice's day: upload, sample, project, group, share, unshare, run, cancel, download, deletes.
    ids.data = await kit.upload(alice.token, 'A1.fastq', READS);
    ids.sample = await kit.createSample(alice.token, 'A1', ids.data);
    ids.project = (
      await kit.api<{ id: number }>('/api/projects/', alice.token, {
        body: { name: 'Pilot', sample_ids: [ids.sample] },
      })
    ).body.id;
    await kit.api('/api/groups/', alice.token, { body: { name: 'Core Lab' } });
    expect(
      (
        await kit.api(`/api/samples/${ids.sample}/share/`, alice.token, {
          body: { group: 'core-lab', permission: 'view' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await kit.api(`/api/samples/${ids.sample}/share/core-lab/`, alice.token, { method: 'DELETE' })).status,
    ).toBe(200);
    tMid = new Date().toISOString();
    const run = await kit.run(alice.token, steps, { samples: [ids.sample], parameters: { steps: 2 } });
    expect(run.status).toBe(201);
    ids.run = run.body.id as number;
    const done = await kit.waitFor(alice.token, ids.run, ['completed']);
    const summary = (done.outputs as Array<{ id: number; filename: string }>).find(
      (o) => o.filename === 'summary.json',
    );
    ids.output = summary!.id;
    const slow = await kit.run(alice.token, steps, { parameters: { steps: 1000, delay_ms: 1000 } });
    ids.slow = slow.body.id as number;
    expect((await kit.api(`/api/executions/${ids.slow}/cancel/`, alice.token, { body: {} })).status).toBe(200);
    const auth = { authorization: `Bearer ${alice.token}` };
    expect((await kit.service.api(`/api/data/${ids.output}/download`, { headers: auth })).status).toBe(200);
    // A download resumed with a Range past byte 0 is the same download: not recorded again.
    const resumed = await kit.service.api(`/api/data/${ids.output}/download`, {
      headers: { ...auth, range: 'bytes=3-' },
    });
    expect(resumed.status).toBe(206);
    expect((await kit.api(`/api/projects/${ids.project}`, alice.token, { method: 'DELETE' })).status).toBe(204);
  });
  afterAll(async () => {
    await kit.stop();
  });

  it('records each action with who, what and when, newest first', async () => {
    const page = await audit('?user=alice&per_page=100');
    expect(page.status).toBe(200);
    const trail = page.body.items
      .slice()
      .reverse()
      .map((e) => `${e.action} ${e.resource.kind} ${e.resource.name ?? e.resource.id}`);
    expect(trail).toEqual([
      'created data A1.fastq',
      'created sample A1',
      'created project Pilot',
      'created group core-lab',
      `shared sample ${ids.sample}`,
      `unshared sample ${ids.sample}`,
      `ran execution Test Steps 2.0.0`,
      `ran execution Test Steps 2.0.0`,
      `cancelled execution Test Steps 2.0.0`,
      'downloaded data summary.json',
      'deleted project Pilot',
    ]);
    const entries = page.body.items;
    for (const e of entries) {
      expect(e.user).toBe('alice');
      expect(Date.parse(e.at)).toBeGreaterThanOrEqual(Date.parse(t0));
    }
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a));
    const ran = entries.find((e) => e.action === 'ran' && e.resource.id === ids.run)!;
    expect(ran.details).toMatchObject({ pipeline: 'Test Steps', version: '2.0.0', samples: [ids.sample] });
    const shared = entries.find((e) => e.action === 'shared')!;
    expect(shared.details).toEqual({ group: 'core-lab', permission: 'view' });
    // The admin created both accounts.
    const users = await audit('?resource_kind=user');
    expect(users.body.items.map((e) => [e.user, e.resource.name]).reverse()).toEqual([
      ['admin', 'admin'],
      ['admin', 'alice'],
      ['admin', 'bob'],
    ]);
  });

  it('filters by user, action, resource kind and id, and a time range; pages', async () => {
    const downloads = await audit('?action=downloaded');
    expect(downloads.body.count).toBe(1);
    expect(downloads.body.items[0]!.resource).toEqual({ kind: 'data', id: ids.output, name: 'summary.json' });

    const onSample = await audit(`?resource_kind=sample&resource_id=${ids.sample}`);
    expect(onSample.body.items.map((e) => e.action).reverse()).toEqual(['created', 'shared', 'unshared']);

    const before = await audit(`?user=alice&until=${encodeURIComponent(tMid)}&per_page=100`);
    expect(before.body.items.every((e) => e.at < tMid)).toBe(true);
    const after = await audit(`?user=alice&since=${encodeURIComponent(tMid)}&per_page=100`);
    expect(after.body.items.every((e) => e.at >= tMid)).toBe(true);
    expect(before.body.count + after.body.count).toBe(11);
    expect(after.body.items.map((e) => e.action)).toContain('ran');
    expect(before.body.items.map((e) => e.action)).not.toContain('ran');

    const p1 = await audit('?user=alice&per_page=4&page=1');
    const p3 = await audit('?user=alice&per_page=4&page=3');
    expect(p1.body).toMatchObject({ count: 11, page: 1, per_page: 4 });
    expect(p1.body.items).toHaveLength(4);
    expect(p3.body.items).toHaveLength(3);
    expect(Math.min(...p1.body.items.map((e) => e.id))).toBeGreaterThan(Math.max(...p3.body.items.map((e) => e.id)));
    expect((await audit('?user=nobody')).body).toMatchObject({ count: 0, items: [] });
  });

  it('is for service administrators only: 403 for others, 401 without a token', async () => {
    const asBob = await audit('', bob.token);
    expect(asBob.status).toBe(403);
    expect(asBob.body).toMatchObject({ code: 'PERMISSION_DENIED', status: 403 });
    expect((await audit('', alice.token)).status).toBe(403);
    const anon = await kit.service.api('/api/audit');
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers bad filters with 400 VALIDATION_ERROR naming the field', async () => {
    for (const [query, field] of [
      ['?action=edited', null],
      ['?resource_kind=planet', null],
      ['?per_page=101', null],
      ['?since=yesterday', 'since'],
      ['?until=2026-13-45T99:99:99Z', 'until'],
      [`?since=${encodeURIComponent('2026-01-02T00:00:00Z')}&until=2026-01-01`, 'until'],
      ['?resource_id=0', null],
      ['?unknown=1', null],
    ] as const) {
      const r = await audit(query);
      expect(r.status, query).toBe(400);
      expect(r.body, query).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
      if (field) expect((r.body as unknown as { fields: Record<string, string> }).fields, query).toHaveProperty(field);
    }
  });

  it('cannot be edited: no route writes it, and the table refuses UPDATE and DELETE', async () => {
    const before = (await audit('?per_page=100')).body;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const path of ['/api/audit', `/api/audit/${before.items[0]!.id}`]) {
        const r = await kit.service.api(path, {
          method,
          headers: {
            authorization: `Bearer ${kit.adminToken}`,
            ...(method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
          },
          body: method === 'DELETE' ? undefined : JSON.stringify({ action: 'created' }),
        });
        expect([404, 405], `${method} ${path}`).toContain(r.status);
      }
    }
    const db = kit.service.ctx.db;
    expect(() => db.prepare("UPDATE audit_log SET username = 'mallory'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect((await audit('?per_page=100')).body).toEqual(before);
    const openapi = (
      await kit.api<{ paths: Record<string, Record<string, unknown>> }>('/api/openapi.json', kit.adminToken)
    ).body;
    expect(Object.keys(openapi.paths['/api/audit']!)).toEqual(['get']);
  });

  it('records deletes of samples and data with the resource name kept', async () => {
    const data = await kit.upload(alice.token, 'B1.fastq', READS.replace('ACGT', 'TTTT'));
    const sample = await kit.createSample(alice.token, 'B1', data);
    expect((await kit.api(`/api/samples/${sample}`, alice.token, { method: 'DELETE' })).status).toBe(204);
    expect((await kit.api(`/api/data/${data}`, alice.token, { method: 'DELETE' })).status).toBe(204);
    const deleted = await audit('?action=deleted&user=alice');
    expect(deleted.body.items.map((e) => `${e.resource.kind} ${e.resource.name}`)).toEqual([
      'data B1.fastq',
      'sample B1',
      'project Pilot',
    ]);
  });
});
