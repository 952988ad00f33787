import { beforeAll, describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { addUser, call, type Session } from '../identity/helpers';
import { fastqBytes, uploadWhole } from './upload-helpers';

describe('samples: create from uploads, vocabularies, list filters, detail, update, share, delete, projects', () => {
  const suite = adminSuite('alice');
  let bob: Session;
  let carol: Session;
  let seed = 100;
  const upload = async (who: Session, name: string) => {
    const res = await uploadWhole(suite.service.url, who.token, name, fastqBytes(10, 30, seed++));
    expect(res.status).toBe(200);
    return res.body.id as number;
  };
  const meta = { organism: 'homo sapiens', category: 'Total RNA', tissue: 'liver' };
  beforeAll(async () => {
    bob = await addUser(suite.service, suite.admin, 'bob');
    carol = await addUser(suite.service, suite.admin, 'carol');
  });

  let paired: Record<string, unknown>;
  it('creates a paired-end sample with canonical vocabulary values, and lists its data', async () => {
    const r1 = await upload(suite.admin, 'liver_R1.fastq');
    const r2 = await upload(suite.admin, 'liver_R2.fastq');
    const res = await call(suite.service, 'POST', '/api/samples/', {
      token: suite.admin.token,
      body: { name: 'liver_1', read1: r1, read2: r2, metadata: meta },
    });
    expect(res.status).toBe(201);
    paired = res.body;
    expect(res.body).toMatchObject({
      name: 'liver_1',
      read1: r1,
      read2: r2,
      paired: true,
      metadata: { organism: 'Homo sapiens', category: 'Total RNA', tissue: 'liver' },
      owner: 'alice',
      can_edit: true,
    });
    expect((res.body.data as Array<{ id: number }>).map((d) => d.id)).toEqual([r1, r2]);
    const detail = await call(suite.service, 'GET', `/api/samples/${res.body.id as number}`, {
      token: suite.admin.token,
    });
    expect(detail.body).toMatchObject({
      id: res.body.id,
      can_edit: true,
      data: [{ id: r1, sample_id: res.body.id }, { id: r2 }],
    });
  });

  it('refuses bad reads and metadata with field-level VALIDATION_ERROR', async () => {
    const r1 = await upload(suite.admin, 'x_R1.fastq');
    const bobs = await upload(bob, 'bob.fastq');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'a', read1: 99999, metadata: meta }, 'read1'],
      [{ name: 'a', read1: bobs, metadata: meta }, 'read1'],
      [{ name: 'a', read1: r1, read2: r1, metadata: meta }, 'read2'],
      [{ name: 'a', read1: paired.read1, metadata: meta }, 'read1'],
      [{ name: 'a', read1: r1, read2: paired.read2, metadata: meta }, 'read2'],
      [{ name: 'a', read1: r1, metadata: { ...meta, organism: 'Unicorn' } }, 'metadata.organism'],
      [{ name: 'a', read1: r1, metadata: { organism: 'Mus musculus' } }, 'metadata.category'],
      [{ name: 'a', read1: r1, metadata: { ...meta, nested: { a: 1 } } }, 'metadata.nested'],
      [{ name: 'a/b', read1: r1, metadata: meta }, 'name'],
      [{ name: 'Undetermined', read1: r1, metadata: meta }, 'name'],
      [{ name: 'a', metadata: meta }, 'read1'],
    ];
    for (const [body, field] of cases) {
      const res = await call(suite.service, 'POST', '/api/samples/', { token: suite.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.body.fields as object), JSON.stringify(body)).toContain(field);
    }
    expect(
      (await call(suite.service, 'POST', '/api/samples/', { body: { name: 'a', read1: r1, metadata: meta } })).status,
    ).toBe(401);
  });

  it('lists with filters and pages', async () => {
    for (const [name, organism, category] of [
      ['mouse_a', 'Mus musculus', 'mRNA'],
      ['mouse_b', 'Mus musculus', 'ATAC'],
      ['fly_a', 'Drosophila melanogaster', 'mRNA'],
    ]) {
      const read1 = await upload(suite.admin, `${name}.fastq`);
      const res = await call(suite.service, 'POST', '/api/samples/', {
        token: suite.admin.token,
        body: { name, read1, metadata: { organism, category } },
      });
      expect(res.status).toBe(201);
    }
    const list = async (q: string) =>
      (await call(suite.service, 'GET', `/api/samples/?${q}`, { token: suite.admin.token })).body as {
        count: number;
        items: Array<{ name: string }>;
      };
    expect((await list('')).count).toBe(4);
    expect((await list('organism=mus%20musculus')).items.map((s) => s.name).sort()).toEqual(['mouse_a', 'mouse_b']);
    expect((await list('category=mRNA')).items.map((s) => s.name).sort()).toEqual(['fly_a', 'mouse_a']);
    expect((await list('name=MOUSE_')).count).toBe(2);
    expect((await list('name=%25')).count).toBe(0);
    expect((await list('paired=true')).items.map((s) => s.name)).toEqual(['liver_1']);
    const page = await list('per_page=2&page=2');
    expect(page).toMatchObject({ count: 4, page: 2, per_page: 2 });
    expect(page.items.length).toBe(2);
    expect((await call(suite.service, 'GET', '/api/samples/?per_page=101', { token: suite.admin.token })).status).toBe(
      400,
    );
    expect((await list('')).items.every((s) => s.name)).toBe(true);
    expect(
      ((await call(suite.service, 'GET', '/api/samples/', { token: bob.token })).body as { count: number }).count,
    ).toBe(0);
  });

  it('shares through a group: view gives read-only access, edit lets a member update', async () => {
    const group = await call(suite.service, 'POST', '/api/groups/', {
      token: suite.admin.token,
      body: { name: 'Sequencing Core' },
    });
    expect(group.status).toBe(201);
    const slug = group.body.slug as string;
    const invite = await call(suite.service, 'POST', `/api/groups/${slug}/invite/`, {
      token: suite.admin.token,
      body: { emails: ['bob@lab.test', 'carol@lab.test'], permission: 'edit' },
    });
    expect(invite.status).toBe(200);
    for (const who of [bob, carol]) {
      expect((await call(suite.service, 'POST', `/api/groups/${slug}/accept/`, { token: who.token })).status).toBe(200);
    }
    const id = paired.id as number;
    expect((await call(suite.service, 'GET', `/api/samples/${id}`, { token: bob.token })).status).toBe(404);
    const share = await call(suite.service, 'POST', `/api/samples/${id}/share/`, {
      token: suite.admin.token,
      body: { group: slug, permission: 'view' },
    });
    expect(share.status).toBe(200);
    const seen = await call(suite.service, 'GET', `/api/samples/${id}`, { token: bob.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ can_edit: false, owner: 'alice' });
    const denied = await call(suite.service, 'PUT', `/api/samples/${id}`, { token: bob.token, body: { name: 'bobs' } });
    expect(denied).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED' } });
    await call(suite.service, 'POST', `/api/samples/${id}/share/`, {
      token: suite.admin.token,
      body: { group: slug, permission: 'edit' },
    });
    const renamed = await call(suite.service, 'PATCH', `/api/samples/${id}`, {
      token: bob.token,
      body: { name: 'liver_1b', metadata: { organism: 'Homo sapiens', category: 'mRNA' } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'liver_1b', can_edit: true, metadata: { category: 'mRNA' } });
    expect((await call(suite.service, 'DELETE', `/api/samples/${id}`, { token: bob.token })).status).toBe(403);
    const bobsList = await call(suite.service, 'GET', '/api/samples/', { token: bob.token });
    expect(bobsList.body.count).toBe(1);
  });

  it('adds samples to projects at creation and through the project, and deletes cleanly', async () => {
    const project = await call(suite.service, 'POST', '/api/projects/', {
      token: suite.admin.token,
      body: { name: 'Liver study', sample_ids: [] },
    });
    expect(project.status).toBe(201);
    const pid = project.body.id as number;
    const read1 = await upload(suite.admin, 'proj.fastq');
    const created = await call(suite.service, 'POST', '/api/samples/', {
      token: suite.admin.token,
      body: { name: 'proj_1', read1, metadata: meta, project: pid },
    });
    expect(created.status).toBe(201);
    expect(created.body.project_ids).toEqual([pid]);
    const inProject = await call(suite.service, 'GET', `/api/samples/?project=${pid}`, { token: suite.admin.token });
    expect((inProject.body.items as Array<{ name: string }>).map((s) => s.name)).toEqual(['proj_1']);
    const bobsRead = await upload(bob, 'bproj.fastq');
    const notTheirs = await call(suite.service, 'POST', '/api/samples/', {
      token: bob.token,
      body: { name: 'b', read1: bobsRead, metadata: meta, project: pid },
    });
    expect(notTheirs.status).toBe(404);
    const sid = created.body.id as number;
    expect((await call(suite.service, 'DELETE', `/api/samples/${sid}`, { token: suite.admin.token })).status).toBe(204);
    expect((await call(suite.service, 'GET', `/api/samples/${sid}`, { token: suite.admin.token })).status).toBe(404);
    const after = await call(suite.service, 'GET', `/api/projects/${pid}`, { token: suite.admin.token });
    expect(after.body.sample_ids).toEqual([]);
    // Its read is free again for a new sample.
    const reuse = await call(suite.service, 'POST', '/api/samples/', {
      token: suite.admin.token,
      body: { name: 'again', read1, metadata: meta },
    });
    expect(reuse.status).toBe(201);
    const del = await call(suite.service, 'DELETE', `/api/data/${read1}`, { token: suite.admin.token });
    expect(del.status).toBe(409);
  });
});
