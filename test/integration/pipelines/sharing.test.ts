import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectUpdates, FIXTURE_MANIFESTS, startKit, wsClient, type Kit } from './pipeline-kit';

// Real engines on a shared two-core machine: allow for slow runs.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Pipeline = { id: number; name: string; versions: Array<{ id: number; is_latest: boolean }> };
type Exec = {
  id: number;
  status: string;
  can_edit: boolean;
  can_share: boolean;
  owner: string | null;
  group_owner: string | null;
  outputs: Array<{ id: number }>;
};

describe('executions share and permission like every other resource', () => {
  let kit: Kit;
  let steps: number;
  let member: { id: number; token: string };
  let editor: { id: number; token: string };
  let slug: string;

  beforeAll(async () => {
    kit = await startKit(FIXTURE_MANIFESTS);
    steps = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body
      .find((p) => p.name === 'Test Steps')!
      .versions.find((v) => v.is_latest)!.id;
    member = await kit.createUser('member');
    editor = await kit.createUser('editor');
    const group = await kit.api<{ slug: string }>('/api/groups/', kit.adminToken, { body: { name: 'Sequencing Lab' } });
    slug = group.body.slug;
    await kit.api(`/api/groups/${slug}/invite/`, kit.adminToken, {
      body: { emails: ['member@lab.example'], permission: 'view' },
    });
    await kit.api(`/api/groups/${slug}/invite/`, kit.adminToken, {
      body: { emails: ['editor@lab.example'], permission: 'edit' },
    });
    expect((await kit.api(`/api/groups/${slug}/accept/`, member.token, { method: 'POST' })).status).toBe(200);
    expect((await kit.api(`/api/groups/${slug}/accept/`, editor.token, { method: 'POST' })).status).toBe(200);
  });
  afterAll(async () => {
    await kit.stop();
  });

  it('a view share lets members read and subscribe but not cancel', async () => {
    const run = await kit.run(kit.adminToken, steps, { parameters: { steps: 200, delay_ms: 50 } });
    const id = run.body.id as number;
    expect((await kit.api(`/api/executions/${id}`, member.token)).status).toBe(404);
    const shared = await kit.api(`/api/executions/${id}/share/`, kit.adminToken, {
      body: { group: slug, permission: 'view' },
    });
    expect(shared.status).toBe(200);
    const seen = await kit.api<Exec>(`/api/executions/${id}`, member.token);
    expect(seen.body).toMatchObject({ id, owner: 'admin', can_edit: false, can_share: false });
    expect((await kit.api<{ count: number }>('/api/executions/', member.token)).body.count).toBe(1);
    const denied = await kit.api(`/api/executions/${id}/cancel`, member.token, { method: 'POST' });
    expect(denied.body).toMatchObject({ code: 'PERMISSION_DENIED', status: 403 });
    const client = wsClient(kit, member.token);
    const stream = collectUpdates(client, id);
    // The editor of the group may cancel once the share allows edit.
    await kit.api(`/api/executions/${id}/share/`, kit.adminToken, { body: { group: slug, permission: 'edit' } });
    const cancelled = await kit.api<Exec>(`/api/executions/${id}/cancel`, editor.token, { method: 'POST' });
    expect(cancelled.body.status).toBe('cancelled');
    const updates = await stream.done;
    expect(updates.at(-1)).toMatchObject({ status: 'cancelled', error: 'Cancelled by editor' });
    await client.dispose();
    const perms = await kit.api<Record<string, unknown>>(`/api/executions/${id}/permissions/`, kit.adminToken);
    expect(perms.status).toBe(200);
    expect(JSON.stringify(perms.body)).toContain(slug);
  });

  it('a group-owned execution belongs to the group: its members see it and its outputs', async () => {
    const run = await kit.run(kit.adminToken, steps, { parameters: { steps: 1 }, group_owner: slug });
    expect(run.body).toMatchObject({ owner: null, group_owner: slug });
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed']);
    const seen = await kit.api<Exec>(`/api/executions/${done.id}`, member.token);
    expect(seen.status).toBe(200);
    const output = (done.outputs as Array<{ id: number }>)[0]!;
    const dl = await kit.service.api(`/api/data/${output.id}/download`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(dl.status).toBe(200);
    expect(await dl.text()).toBe('{"steps":1}');
    const foreign = await kit.run(member.token, steps, { group_owner: 'no-such-group' });
    expect(foreign.body).toMatchObject({ code: 'VALIDATION_ERROR', fields: { group_owner: expect.any(String) } });
    const viewOnly = await kit.run(member.token, steps, { group_owner: slug });
    expect(viewOnly.body).toMatchObject({ code: 'PERMISSION_DENIED' });
  });
});
