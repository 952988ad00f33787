/**
 * Issue 21 (many small files): a file sent as one chunk (total_chunks 1) has no upload row and
 * no folder until it commits; it is written once to uploads/tmp and renamed into the store.
 * What a client can see must not differ from a multi-chunk upload's: the status of a file still
 * arriving, abandoning it then, a second request with its file_id meanwhile, a refused chunk,
 * and nothing left behind. Raw HTTP where a body is held open halfway.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestService } from '../../helpers/test-service';
import { adminSuite } from '../identity/admin-suite';
import { wholeInFlight } from '../../../src/service/uploads/single-chunk';
import { fastqBytes, postChunk, sha256 } from '../data/upload-helpers';
import { call } from '../identity/helpers';

vi.setConfig({ testTimeout: 60_000 });

type Answer = { status: number; body: Record<string, unknown> };

/** Starts a one-chunk POST /api/upload and sends half its file; `finish` sends the rest. */
function halfSent(service: TestService, token: string, fileId: string, bytes: Buffer) {
  const boundary = 'laneway-one-chunk-boundary';
  const fields = { filename: `${fileId}.fastq`, chunk: 0, total_chunks: 1, file_id: fileId, checksum: sha256(bytes) };
  const head = [
    ...Object.entries(fields).map(
      ([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
    ),
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${fields.filename}"\r\n` +
      'content-type: application/octet-stream\r\n\r\n',
  ].join('');
  const tail = `\r\n--${boundary}--\r\n`;
  const req = request(`${service.url}/api/upload`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': Buffer.byteLength(head) + bytes.length + Buffer.byteLength(tail),
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
    });
    req.on('error', reject);
  });
  const half = bytes.length >> 1;
  req.write(head);
  req.write(bytes.subarray(0, half));
  return { answer, finish: () => req.end(Buffer.concat([bytes.subarray(half), Buffer.from(tail)])) };
}

describe('a file of one chunk (issue 21)', () => {
  const suite = adminSuite();
  let adminId: number;
  const uploads = () => join(suite.service.dataDir, 'uploads');
  /** What is left under uploads/: no folder per upload, and nothing in tmp/. */
  const leftovers = () => [
    ...readdirSync(uploads()).filter((n) => n !== 'tmp'),
    ...(existsSync(join(uploads(), 'tmp')) ? readdirSync(join(uploads(), 'tmp')) : []),
  ];
  const arriving = (fileId: string) =>
    vi.waitFor(() => expect(wholeInFlight(suite.service.ctx, adminId, fileId)).toBeDefined(), {
      timeout: 20_000,
      interval: 10,
    });

  beforeAll(async () => {
    adminId = (suite.service.ctx.db.prepare('SELECT id FROM users').get() as { id: number }).id;
  });

  it('stores it in the content store with a complete upload row, leaves nothing under uploads/, and answers a re-send with the same record', async () => {
    const bytes = fastqBytes(500, 60, 21);
    const fields = { filename: 'one.fastq', chunk: 0, total_chunks: 1, file_id: 'one-1', checksum: sha256(bytes) };
    const first = await postChunk(suite.service.url, suite.admin.token, fields, bytes);
    expect(first).toMatchObject({ status: 200, body: { checksum: sha256(bytes), size: bytes.length } });
    const stored = join(suite.service.dataDir, 'store', sha256(bytes).slice(0, 2), sha256(bytes));
    expect(readFileSync(stored).equals(bytes)).toBe(true);
    expect(leftovers()).toEqual([]);
    const status = await call(suite.service, 'GET', '/api/upload/one-1', { token: suite.admin.token });
    expect(status.body).toMatchObject({ complete: true, received_chunks: [0], data_id: first.body.id });
    const again = await postChunk(suite.service.url, suite.admin.token, fields, bytes);
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id } });
  });

  it('shows a file still arriving as nothing received, and a second request with its file_id waits for it', async () => {
    const bytes = fastqBytes(4000, 60, 22);
    const held = halfSent(suite.service, suite.admin.token, 'one-2', bytes);
    await arriving('one-2');
    const status = await call(suite.service, 'GET', '/api/upload/one-2', { token: suite.admin.token });
    expect(status).toMatchObject({ status: 200, body: { received_chunks: [], complete: false, data_id: null } });
    const fields = { filename: 'one-2.fastq', chunk: 0, total_chunks: 1, file_id: 'one-2', checksum: sha256(bytes) };
    const second = postChunk(suite.service.url, suite.admin.token, fields, bytes);
    held.finish();
    const first = await held.answer;
    expect(first).toMatchObject({ status: 200, body: { checksum: sha256(bytes) } });
    expect(await second).toMatchObject({ status: 200, body: { id: first.body.id } });
    const records = suite.service.ctx.db
      .prepare('SELECT count(*) AS n FROM data_files WHERE checksum = ?')
      .get(sha256(bytes));
    expect(records).toEqual({ n: 1 });
    expect(leftovers()).toEqual([]);
  });

  it('abandoned while arriving (DELETE), it answers 409 UPLOAD_CONFLICT, stores nothing, and can be sent again', async () => {
    const bytes = fastqBytes(4000, 60, 23);
    const held = halfSent(suite.service, suite.admin.token, 'one-3', bytes);
    await arriving('one-3');
    expect((await call(suite.service, 'DELETE', '/api/upload/one-3', { token: suite.admin.token })).status).toBe(204);
    held.finish();
    const got = await held.answer;
    expect(got).toMatchObject({ status: 409, body: { code: 'UPLOAD_CONFLICT', status: 409 } });
    expect(String(got.body.error)).toMatch(/abandoned/);
    expect((await call(suite.service, 'GET', '/api/upload/one-3', { token: suite.admin.token })).status).toBe(404);
    const records = suite.service.ctx.db
      .prepare('SELECT count(*) AS n FROM data_files WHERE checksum = ?')
      .get(sha256(bytes));
    expect(records).toEqual({ n: 0 });
    // The refused file's spool is gone by the time of the answer (commitWhole awaits its removal).
    expect(leftovers()).toEqual([]);
    const fields = { filename: 'one-3.fastq', chunk: 0, total_chunks: 1, file_id: 'one-3', checksum: sha256(bytes) };
    expect((await postChunk(suite.service.url, suite.admin.token, fields, bytes)).status).toBe(200);
  });

  it('commits many at once (their records share commits): each its own record, a twin refused as a duplicate', async () => {
    const files = Array.from({ length: 16 }, (_, i) => fastqBytes(200, 60, 100 + i));
    const twin = fastqBytes(200, 60, 99);
    const sent = [...files, twin, twin].map((bytes, i) =>
      postChunk(
        suite.service.url,
        suite.admin.token,
        { filename: `many-${i}.fastq`, chunk: 0, total_chunks: 1, file_id: `many-${i}`, checksum: sha256(bytes) },
        bytes,
      ),
    );
    const answers = await Promise.all(sent);
    for (const a of answers.slice(0, 16)) expect(a.status).toBe(200);
    expect(new Set(answers.slice(0, 16).map((a) => a.body.id)).size).toBe(16);
    // Of the twins, whichever committed first has the record; the other is told of it.
    const pair = answers.slice(16);
    const stored = pair.find((a) => a.status === 200)!;
    expect(pair.find((a) => a !== stored)).toMatchObject({
      status: 409,
      body: { code: 'DUPLICATE_FILE', data_id: stored.body.id },
    });
    const db = suite.service.ctx.db;
    for (const bytes of [...files, twin]) {
      expect(db.prepare('SELECT count(*) AS n FROM data_files WHERE checksum = ?').get(sha256(bytes))).toEqual({
        n: 1,
      });
      expect(existsSync(join(suite.service.dataDir, 'store', sha256(bytes).slice(0, 2), sha256(bytes)))).toBe(true);
    }
    const ids = [...answers.slice(0, 16), stored].map((a) => a.body.id as number);
    const audited = db
      .prepare(
        `SELECT count(*) AS n FROM audit_log WHERE action = 'created' AND resource_kind = 'data' AND resource_id IN (${ids.join(',')})`,
      )
      .get();
    expect(audited).toEqual({ n: 17 });
    expect(leftovers()).toEqual([]);
  });

  it('a group whose commit fails: each of its files answers 500 with the error body and keeps no record, and is stored when sent again', async () => {
    const db = suite.service.ctx.db;
    // The injected fault: a record named poison-* writes a row whose deferred foreign key dangles.
    // Its own savepoint succeeds; the COMMIT of its whole group fails, as an I/O error would.
    db.exec(`CREATE TABLE fault_parents (id INTEGER PRIMARY KEY);
      CREATE TABLE fault_rows (parent INTEGER REFERENCES fault_parents(id) DEFERRABLE INITIALLY DEFERRED);
      CREATE TRIGGER fault_at_commit AFTER INSERT ON data_files WHEN NEW.filename LIKE 'poison-%'
        BEGIN INSERT INTO fault_rows VALUES (-1); END;`);
    const files = Array.from({ length: 24 }, (_, i) => fastqBytes(200, 60, 300 + i));
    const name = (i: number) => (i % 6 === 0 ? `poison-${i}.fastq` : `mate-${i}.fastq`);
    const send = (i: number) =>
      postChunk(
        suite.service.url,
        suite.admin.token,
        { filename: name(i), chunk: 0, total_chunks: 1, file_id: `group-${i}`, checksum: sha256(files[i]!) },
        files[i]!,
      );
    const answers = await Promise.all(files.map((_, i) => send(i)));
    const records = (bytes: Buffer) =>
      (db.prepare('SELECT count(*) AS n FROM data_files WHERE checksum = ?').get(sha256(bytes)) as { n: number }).n;
    const failed: number[] = [];
    answers.forEach((a, i) => {
      if (name(i).startsWith('poison-')) expect(a.status).toBe(500);
      if (a.status === 200) {
        expect(records(files[i]!)).toBe(1);
        return;
      }
      // Every poison file, and whichever files shared a commit with one: nothing of them is stored.
      expect(a).toMatchObject({ status: 500, body: { code: 'INTERNAL', status: 500 } });
      expect(records(files[i]!)).toBe(0);
      failed.push(i);
    });
    // Logged as what it is, an internal failure, once per file it failed.
    expect(suite.service.expectInternal('FOREIGN KEY constraint failed')).toBe(failed.length);
    // Each failed file reads as a refused first chunk: nothing received, so the client sends it all again.
    for (const i of failed) {
      const status = await call(suite.service, 'GET', `/api/upload/group-${i}`, { token: suite.admin.token });
      expect(status).toMatchObject({ status: 200, body: { received_chunks: [], complete: false } });
    }
    db.exec('DROP TRIGGER fault_at_commit; DROP TABLE fault_rows; DROP TABLE fault_parents;');
    const again = await Promise.all(failed.map((i) => send(i)));
    again.forEach((a, k) => {
      const bytes = files[failed[k]!]!;
      expect(a).toMatchObject({ status: 200, body: { checksum: sha256(bytes), size: bytes.length } });
      expect(records(bytes)).toBe(1);
      const stored = join(suite.service.dataDir, 'store', sha256(bytes).slice(0, 2), sha256(bytes));
      expect(readFileSync(stored).equals(bytes)).toBe(true);
    });
    await vi.waitFor(() => expect(leftovers()).toEqual([]), { timeout: 20_000, interval: 10 });
  });

  it('refused for its checksum, it leaves the upload row a refused first chunk leaves, and no bytes', async () => {
    const bytes = fastqBytes(300, 60, 24);
    const fields = {
      filename: 'bad.fastq',
      chunk: 0,
      total_chunks: 1,
      file_id: 'one-4',
      checksum: sha256(Buffer.from('x')),
    };
    const got = await postChunk(suite.service.url, suite.admin.token, fields, bytes);
    expect(got).toMatchObject({ status: 422, body: { code: 'CHECKSUM_MISMATCH' } });
    const status = await call(suite.service, 'GET', '/api/upload/one-4', { token: suite.admin.token });
    expect(status).toMatchObject({ status: 200, body: { received_chunks: [], complete: false } });
    expect(existsSync(join(suite.service.dataDir, 'store', sha256(bytes).slice(0, 2), sha256(bytes)))).toBe(false);
    await vi.waitFor(() => expect(leftovers()).toEqual([]), { timeout: 20_000, interval: 10 });
  });
});
