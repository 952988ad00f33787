/**
 * The Flow mount's wire, checked from TypeScript (runs without Python): sign-in, cookie and
 * refresh, error bodies, the offset chunk protocol with re-sends, sample and annotation uploads
 * and the template, as FLOW-WIRE.md specifies them; flow-reads-runs.test.ts covers lookups,
 * runs and downloads, and flowbio-conformance.test.ts drives the same wire with Flow's client.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { writePair, writeReads, writeWarningLane } from '../../helpers/flow/flow-fixtures';
import { flowFetch, postChunk, uploadInChunks } from '../../helpers/flow/flow-wire-client';
import { redoclyLint } from '../../helpers/redocly-lint';
import { tempDir } from '../../helpers/temp';
import { call } from '../identity/helpers';

describe('the Flow wire at /flow/api', () => {
  const suite = adminSuite();
  let base: string;
  let token: string;
  let cookie: string;
  const dir = tempDir('laneway-flow-wire-');

  afterAll(() => {
    dir.remove();
  });
  beforeAll(async () => {
    base = `${suite.service.url}/flow/api`;
    const res = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'correct horse' }),
    });
    token = ((await res.json()) as { token: string }).token;
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  });

  it('signs in with a string id and sets flow_refresh_token on /flow/api; bad credentials are a 400', async () => {
    const res = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'correct horse' }),
    });
    const body = (await res.json()) as { token: string; user: { id: unknown } };
    expect(body.user.id).toBe(String(suite.admin.id));
    const set = res.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/^flow_refresh_token=[^;]+;/);
    expect(set).toContain('Path=/flow/api');
    expect(set).toContain('HttpOnly');
    const bad = await flowFetch(base, '/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'wrong password' }),
    });
    expect(bad).toMatchObject({ status: 400, body: { error: 'Invalid credentials' } });
    // /api keeps its own cookie and its own 401.
    const apiBad = await call(suite.service, 'POST', '/api/login', {
      body: { username: 'admin', password: 'nope nope' },
    });
    expect(apiBad.status).toBe(401);
  });

  it('refreshes from the cookie (ignoring a stale Authorization header); without it answers 400', async () => {
    const ok = await flowFetch(base, '/token', { headers: { cookie, authorization: 'Bearer stale.token.here' } });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe('string');
    expect(await flowFetch(base, '/token')).toMatchObject({ status: 400, body: { error: 'Refresh token not valid' } });
  });

  it('accepts Bearer and bare tokens; a bad or missing token is a 401 with an object body', async () => {
    const bearer = await flowFetch(base, '/me', { token });
    expect(bearer.body).toMatchObject({ id: String(suite.admin.id), username: 'admin', memberships: [], image: null });
    const bare = await flowFetch(base, '/me', { headers: { authorization: token } });
    expect(bare.status).toBe(200);
    const bad = await flowFetch(base, '/me', { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    expect(typeof bad.body.error).toBe('string');
    expect((await flowFetch(base, '/me')).status).toBe(401);
    // The access token of /flow/api is the service's: /api accepts it too.
    expect((await call(suite.service, 'GET', '/api/me', { token })).status).toBe(200);
  });

  it('answers unknown paths and resources with 404 {"error":"Not found"}, imports with a clear 400', async () => {
    expect(await flowFetch(base, '/no/such/thing', { token })).toMatchObject({
      status: 404,
      body: { error: 'Not found' },
    });
    expect(await flowFetch(base, '/samples/987654', { token })).toMatchObject({
      status: 404,
      body: { error: 'Not found' },
    });
    const imports = await flowFetch(base, '/v2/sample-imports', { method: 'POST', token });
    expect(imports).toMatchObject({ status: 400, body: { error: expect.stringMatching(/not supported/) } });
  });

  it('stores a file sent in offset chunks, acknowledges re-sends, refuses wrong offsets', async () => {
    const bytes = readFileSync(writeReads(dir.path, 'offsets.fastq', 100, 41));
    const size = 5000;
    const chunk = (i: number, data: string) => ({
      filename: 'offsets.fastq',
      offset: i * size,
      isLast: (i + 1) * size >= bytes.length,
      data,
      bytes: bytes.subarray(i * size, (i + 1) * size),
    });
    const first = await postChunk(base, '/upload', token, chunk(0, ''));
    expect(first.status).toBe(200);
    const id = first.body.data_id as string;
    expect(id).toBeTruthy();
    const second = await postChunk(base, '/upload', token, chunk(1, id));
    expect(second.body.data_id).toBe(id);
    // The same chunk again (its answer was lost): acknowledged, nothing appended.
    expect((await postChunk(base, '/upload', token, chunk(1, id))).body.data_id).toBe(id);
    // Laneway's extension: what the service holds, for a client resuming after a crash.
    const held = await flowFetch(base, `/upload/${id}`, { token });
    expect(held.body).toEqual({ data_id: id, expected_file_size: 2 * size, is_complete: false, id: null });
    expect((await flowFetch(base, '/upload/flow-no-such-upload', { token })).status).toBe(404);
    // A chunk past what is held.
    const gap = await postChunk(base, '/upload', token, chunk(3, id));
    expect(gap.status).toBe(400);
    expect(gap.body.error).toMatch(/offset/);
    let last = second;
    const n = Math.ceil(bytes.length / size);
    for (let i = 2; i < n; i++) last = await postChunk(base, '/upload', token, chunk(i, id));
    expect(last.body.id).toMatch(/^\d+$/);
    const again = await postChunk(base, '/upload', token, chunk(n - 1, id));
    expect(again.body.id).toBe(last.body.id);
    expect((await flowFetch(base, `/upload/${id}`, { token })).body).toEqual({
      data_id: id,
      expected_file_size: bytes.length,
      is_complete: true,
      id: last.body.id,
    });
    const download = await fetch(`${base}/downloads/${String(last.body.id)}/offsets.fastq`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(download.headers.get('content-disposition')).toContain('offsets.fastq');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses spaces in filenames, other content and foreign offsets with Flow bodies', async () => {
    const bytes = readFileSync(writeReads(dir.path, 'plain.fastq', 5, 42));
    const spaced = await uploadInChunks(base, '/upload', token, 'with space.fastq', bytes, 1000);
    expect(spaced).toMatchObject({ status: 400, body: { filename: ['Spaces in filename'] } });
    const notFastq = await uploadInChunks(base, '/upload', token, 'fake.fastq', Buffer.from('hello, world\n'), 1000);
    expect(notFastq.status).toBe(400);
    const unknown = await postChunk(base, '/upload', token, {
      filename: 'plain.fastq',
      offset: 1000,
      isLast: true,
      data: 'flow-not-an-upload',
      bytes,
    });
    expect(unknown.status).toBe(400);
  });

  it('creates a paired sample from /upload/sample, refusing a bad sample type before storing anything', async () => {
    const before = (await call(suite.service, 'GET', '/api/data/', { token })).body.count as number;
    const { r1, r2 } = writePair(dir.path, 'wire', 30, 43);
    const fields = { sample_name: 'wire_1', sample_type: 'Nope', organism: 'Hs', is_last_sample: 'false' };
    const refused = await uploadInChunks(
      base,
      '/upload/sample',
      token,
      'wire_R1.fastq',
      readFileSync(r1),
      2000,
      fields,
    );
    expect(refused).toMatchObject({ status: 400, body: { error: 'Invalid sample type' } });
    expect((await call(suite.service, 'GET', '/api/data/', { token })).body.count).toBe(before);
    const good = { ...fields, sample_type: 'RNA', tissue: 'liver' };
    const one = await uploadInChunks(base, '/upload/sample', token, 'wire_R1.fastq', readFileSync(r1), 2000, good);
    expect(one.body).toMatchObject({ sample_id: null });
    const two = await uploadInChunks(base, '/upload/sample', token, 'wire_R2.fastq', readFileSync(r2), 2000, {
      ...good,
      is_last_sample: 'true',
      previous_data: [String(one.body.data_id)],
    });
    expect(two.body.sample_id).toMatch(/^\d+$/);
    const sample = await flowFetch(base, `/samples/${String(two.body.sample_id)}`, { token });
    expect(sample.body).toMatchObject({ name: 'wire_1', sample_type: 'RNA', metadata: { tissue: { value: 'liver' } } });
  });

  it('judges annotation sheets: validation and warnings without an error key, accepted with ignore_warnings', async () => {
    const bad = Buffer.from('Sample Name,Barcode,Organism,Category\nA1,ACGTNNZZ,Homo sapiens,RNA\n');
    const refused = await uploadInChunks(base, '/upload/annotation', token, 'bad.csv', bad, 1000);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBeUndefined();
    expect(refused.body.validation).toEqual(
      expect.arrayContaining([expect.objectContaining({ row: expect.any(Number) })]),
    );
    const lane = writeWarningLane(dir.path);
    const sheet = readFileSync(lane.sheet);
    const warned = await uploadInChunks(base, '/upload/annotation', token, 'lane7.csv', sheet, 100);
    expect(warned.status).toBe(400);
    expect(warned.body.error).toBeUndefined();
    expect(JSON.stringify(warned.body.warnings)).toMatch(/reverse complement/);
    const accepted = await uploadInChunks(base, '/upload/annotation', token, 'lane7.csv', sheet, 100, {
      ignore_warnings: 'true',
    });
    expect(accepted.body.id).toMatch(/^annotation-/);
    // Reads no pending sheet names are refused before any byte is stored.
    const stray = await uploadInChunks(
      base,
      '/upload/multiplexed',
      token,
      'stray_R1.fastq',
      readFileSync(lane.r1),
      4000,
    );
    expect(stray.status).toBe(400);
  });

  it("serves the lane template with Flow's File columns, and a sheet filled in from it is accepted", async () => {
    const res = await fetch(`${base}/annotation/generic`, { headers: { authorization: `Bearer ${token}` } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const sheet = wb.worksheets[0]!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(headers).toEqual(expect.arrayContaining(['File', 'File 2']));
    const rows = [
      { name: 'T01', barcode: 'ACGTACGT', file: 'run9_R1.fastq' },
      { name: 'T02', barcode: 'TTGACCAA', file: 'run9_R1.fastq' },
    ];
    rows.forEach((r, i) => {
      const values: Record<string, string> = {
        'Sample Name *': r.name,
        'Barcode *': r.barcode,
        'Organism *': 'Homo sapiens',
        'Category *': 'RNA',
        File: r.file,
      };
      const row = sheet.getRow(i + 2);
      headers.forEach((h, c) => {
        if (values[h] !== undefined) row.getCell(c + 1).value = values[h];
      });
      row.commit();
    });
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const accepted = await uploadInChunks(base, '/upload/annotation', token, 'run9.xlsx', bytes, 4000, {
      ignore_warnings: 'true',
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.id).toMatch(/^annotation-/);
  });

  it('revokes the refresh token on logout', async () => {
    const res = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'correct horse' }),
    });
    const mine = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await flowFetch(base, '/token', { headers: { cookie: mine } })).status).toBe(200);
    const out = await fetch(`${base}/logout`, { method: 'POST', headers: { cookie: mine } });
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await flowFetch(base, '/token', { headers: { cookie: mine } })).status).toBe(400);
  });

  it("keeps Flow's routes out of /api's OpenAPI document and serves its own", async () => {
    const api = (await (await suite.service.api('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(api.paths).filter((p) => p.includes('flow'))).toEqual([]);
    const flow = (await (await suite.service.api('/flow/api/openapi.json')).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(flow.paths)).toEqual(
      expect.arrayContaining(['/login', '/upload', '/pipelines/versions/{id}/run']),
    );
    // It is a valid OpenAPI document (the same pinned redocly and rules as /api's).
    const result = await redoclyLint(flow, join(dir.path, 'flow-openapi.json'));
    expect(result.output).toMatch(/validated in/);
    expect(result).not.toHaveProperty('code');
  }, 120_000);
});
