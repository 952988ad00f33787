/**
 * The legacy GraphQL endpoint (/flow/api/graphql) on the wire, without Python: what flowbio's
 * `Client` needs (every answer JSON, refusals in `errors` with the v2 mount's status and body,
 * the bare token) and what an attacker would send (broken JSON and multipart, a map pointing
 * into nested variables, a file part the map does not name, documents made costly with aliases,
 * two runs in one request, another user's records). Never a 500; the test service fails its
 * stop() if anything logs an internal error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { writeReads } from '../../helpers/flow/flow-fixtures';
import { tempDir } from '../../helpers/temp';
import { addUser, call, type Session } from '../identity/helpers';
import { readFileSync } from 'node:fs';

interface Answer {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions: Record<string, unknown> }>;
  };
}

describe('legacy GraphQL on the wire', () => {
  const suite = adminSuite();
  let other: Session;
  const dir = tempDir('laneway-legacy-wire-');

  async function gql(body: BodyInit, token: string | null, contentType?: string): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = token; // bare, as flowbio.Client sends it
    if (contentType) headers['content-type'] = contentType;
    const res = await suite.service.api('/flow/api/graphql', { method: 'POST', headers, body });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Answer['body'] };
  }
  const query = (q: string, variables: Record<string, unknown>, token: string | null) =>
    gql(JSON.stringify({ query: q, variables }), token, 'application/json');

  function chunkForm(operations: unknown, map: unknown, files: Record<string, Buffer>): FormData {
    const form = new FormData();
    form.append('operations', typeof operations === 'string' ? operations : JSON.stringify(operations));
    form.append('map', typeof map === 'string' ? map : JSON.stringify(map));
    for (const [name, bytes] of Object.entries(files)) form.append(name, new Blob([new Uint8Array(bytes)]), 'r.fastq');
    return form;
  }
  const UPLOAD = `mutation uploadData($blob: Upload!, $isLast: Boolean!, $expectedFileSize: Float!, $data: ID, $filename: String!) {
    uploadData(blob: $blob, isLast: $isLast, expectedFileSize: $expectedFileSize, data: $data, filename: $filename) { dataId } }`;

  afterAll(() => {
    dir.remove();
  });
  beforeAll(async () => {
    other = await addUser(suite.service, suite.admin, 'other');
  });

  it('answers every refusal as JSON with errors, never a 500', async () => {
    const cases: Array<[BodyInit, string | undefined]> = [
      ['{"query":', 'application/json'],
      ['[1,2]', 'application/json'],
      ['{"query": 5}', 'application/json'],
      ['{"query": "{ accessToken", "variables": {}}', 'application/json'],
      ['{"query": "{ nope }"}', 'application/json'],
      ['{"query": "{ accessToken }", "variables": [1]}', 'application/json'],
      ['plain text', 'text/plain'],
      ['no boundary', 'multipart/form-data'],
    ];
    for (const [body, type] of cases) {
      const r = await gql(body, suite.admin.token, type);
      expect(r.status, String(body)).toBeLessThan(500);
      expect(r.body.errors?.length, String(body)).toBeGreaterThan(0);
    }
  });

  it('refuses unauthenticated reads with 401 in the error, and a bad token alike', async () => {
    const anonymous = await query('{ pipelineCategories { name } }', {}, null);
    expect(anonymous.body.errors![0]!.extensions.status).toBe(401);
    const forged = await query('{ pipelineCategories { name } }', {}, 'not.a.token');
    expect(forged.body.errors![0]!.extensions.status).toBe(401);
  });

  it("hides another user's data as not found", async () => {
    const file = writeReads(dir.path, 'mine.fastq', 20, 5);
    const form = chunkForm(
      {
        query: UPLOAD,
        variables: { blob: null, isLast: true, expectedFileSize: 0, data: null, filename: 'mine.fastq' },
      },
      { 0: ['variables.blob'] },
      { 0: readFileSync(file) },
    );
    const up = await gql(form, suite.admin.token);
    const id = (up.body.data!.uploadData as { dataId: string }).dataId;
    const mine = await query('query d($id: ID!) { data(id: $id) { id filename } }', { id }, suite.admin.token);
    expect(mine.body.data!.data).toEqual({ id, filename: 'mine.fastq' });
    const theirs = await query('query d($id: ID!) { data(id: $id) { id filename } }', { id }, other.token);
    expect(theirs.body.errors![0]!.extensions).toMatchObject({ status: 404, error: 'Not found' });
    const absent = await query('query s($id: ID!) { sample(id: $id) { id } }', { id: '../../etc' }, suite.admin.token);
    expect(absent.body.errors![0]!.extensions.status).toBe(404);
  });

  it('refuses multipart requests that point files elsewhere or lack them', async () => {
    const bytes = readFileSync(writeReads(dir.path, 'm.fastq', 5, 6));
    const ops = { query: UPLOAD, variables: { blob: null, isLast: true, expectedFileSize: 0, filename: 'm.fastq' } };
    const bad = [
      chunkForm(ops, { 0: ['variables.blob.x'] }, { 0: bytes }),
      chunkForm(ops, { 0: ['variables.__proto__'] }, { 0: bytes }),
      chunkForm(ops, { 1: ['variables.blob'] }, { 0: bytes }),
      chunkForm(ops, { 0: ['variables.blob', 'variables.filename'] }, { 0: bytes }),
      chunkForm(ops, '[not json', { 0: bytes }),
      chunkForm('{"variables":{}}', { 0: ['variables.blob'] }, { 0: bytes }),
      chunkForm(ops, { 0: ['variables.blob'] }, { 0: bytes, 1: bytes }),
      chunkForm(
        { ...ops, variables: { ...ops.variables, expectedFileSize: 0.5 } },
        { 0: ['variables.blob'] },
        { 0: bytes },
      ),
      chunkForm(
        { ...ops, variables: { ...ops.variables, filename: 'has space.fastq' } },
        { 0: ['variables.blob'] },
        { 0: bytes },
      ),
    ];
    for (const form of bad) {
      const r = await gql(form, suite.admin.token);
      expect(r.status).toBeLessThan(500);
      expect(r.body.errors?.length).toBeGreaterThan(0);
    }
    // A file variable given as JSON text instead of a file part is refused too.
    const textBlob = await query(UPLOAD, { ...ops.variables, blob: 'ACGT' }, suite.admin.token);
    expect(textBlob.body.errors![0]!.extensions.status).toBe(400);
  });

  it('bounds a document: aliases, root fields and runs per request', async () => {
    const aliases = Array.from({ length: 50 }, (_, i) => `a${i}: pipelineCategories { name }`).join(' ');
    const many = await query(`{ ${aliases} }`, {}, suite.admin.token);
    expect(many.status).toBe(400);
    expect(many.body.errors![0]!.message).toMatch(/root fields/);
    const wide = `{ pipelineCategories { ${Array.from({ length: 500 }, (_, i) => `n${i}: name`).join(' ')} } }`;
    const costly = await query(wide, {}, suite.admin.token);
    expect(costly.body.errors![0]!.message).toMatch(/fields per request/);
    const run = (alias: string) =>
      `${alias}: runPipeline(id: "1", params: "{}", dataParams: "{}", sampleParams: "{}", nextflowVersion: "x") { execution { id } }`;
    const two = await query(`mutation { ${run('a')} ${run('b')} }`, {}, suite.admin.token);
    expect(two.body.errors![0]!.message).toMatch(/one runPipeline/);
    const junk = await query(
      'mutation { runPipeline(id: "1", params: "[", dataParams: "{}", sampleParams: "{}", nextflowVersion: "x") { execution { id } } }',
      {},
      suite.admin.token,
    );
    expect(junk.body.errors![0]!.extensions.status).toBe(400);
  });

  it('signs in with login, sets the refresh cookie on the mount, and re-mints with accessToken', async () => {
    const res = await suite.service.api('/flow/api/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation login($u: String!, $p: String!) { login(username: $u, password: $p) { accessToken } }',
        variables: { u: 'admin', p: 'correct horse' },
      }),
    });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toMatch(/^flow_refresh_token=/);
    expect(res.headers.get('set-cookie')).toMatch(/Path=\/flow\/api/);
    const token = ((await res.json()) as { data: { login: { accessToken: string } } }).data.login.accessToken;
    const me = await call(suite.service, 'GET', '/flow/api/me', { headers: { authorization: token } });
    expect(me.body.username).toBe('admin');
    const again = await suite.service.api('/flow/api/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ query: '{ accessToken }' }),
    });
    expect(((await again.json()) as { data: { accessToken: string } }).data.accessToken).toMatch(/\./);
    const none = await query('{ accessToken }', {}, null);
    expect(none.body.errors![0]!.extensions.status).toBe(400);
  });
});
