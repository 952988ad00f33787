import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { addUser, type Session } from '../identity/helpers';
import { chunksOf, fastqBytes, postChunk, sha256, uploadWhole } from './upload-helpers';

describe('chunked upload: order, concurrency, re-sends, resume status, storage', () => {
  const suite = adminSuite('alice');
  let bob: Session;
  beforeAll(async () => {
    bob = await addUser(suite.service, suite.admin, 'bob');
  });

  it('stores a single-chunk file and answers with its data record', async () => {
    const bytes = fastqBytes(20, 50, 11);
    const res = await uploadWhole(suite.service.url, suite.admin.token, 'one.fastq', bytes);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      filename: 'one.fastq',
      size: bytes.length,
      data_type: 'fastq',
      checksum: sha256(bytes),
      owner: 'alice',
      can_edit: true,
    });
    const download = await suite.service.api(`/api/data/${res.body.id as number}/download`, {
      headers: { authorization: `Bearer ${suite.admin.token}` },
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('accepts chunks out of order, concurrently and re-sent, and assembles the file once', async () => {
    const bytes = fastqBytes(400, 80, 12);
    const parts = chunksOf(bytes, 4096);
    const n = parts.length;
    const base = { filename: 'shuffled.fastq', total_chunks: n, file_id: 'shuffled-1', total_size: bytes.length };
    // The last chunk first, then the middle ones concurrently (with duplicates), then chunk 0.
    const first = await postChunk(suite.service.url, suite.admin.token, { ...base, chunk: n - 1 }, parts[n - 1]!);
    expect(first).toMatchObject({ status: 200, body: { file_id: 'shuffled-1', received: 1, total_chunks: n } });
    const middle = Array.from({ length: n - 2 }, (_, i) => i + 1);
    const answers = await Promise.all(
      [...middle, ...middle.slice(0, 5)].map((i) =>
        postChunk(suite.service.url, suite.admin.token, { ...base, chunk: i }, parts[i]!),
      ),
    );
    for (const a of answers) expect(a.status).toBe(200);
    const status = await fetch(`${suite.service.url}/api/upload/shuffled-1`, {
      headers: { authorization: `Bearer ${suite.admin.token}` },
    });
    const st = (await status.json()) as { received_chunks: number[]; complete: boolean };
    expect(st.complete).toBe(false);
    expect(st.received_chunks).toEqual(Array.from({ length: n - 1 }, (_, i) => i + 1));
    // A chunk re-sent with identical bytes is acknowledged again; other bytes are a conflict.
    const again = await postChunk(suite.service.url, suite.admin.token, { ...base, chunk: 3 }, parts[3]!);
    expect(again.status).toBe(200);
    const other = Buffer.from(parts[3]!);
    other[10] = other[10] === 0x41 ? 0x43 : 0x41;
    const conflict = await postChunk(suite.service.url, suite.admin.token, { ...base, chunk: 3 }, other);
    expect(conflict).toMatchObject({ status: 409, body: { code: 'UPLOAD_CONFLICT', status: 409 } });
    const last = await postChunk(suite.service.url, suite.admin.token, { ...base, chunk: 0 }, parts[0]!);
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ checksum: sha256(bytes), size: bytes.length, filename: 'shuffled.fastq' });
    // Re-sending any chunk of a completed upload answers with its data record again.
    const late = await postChunk(suite.service.url, suite.admin.token, { ...base, chunk: 2 }, parts[2]!);
    expect(late).toMatchObject({ status: 200, body: { id: last.body.id } });
    const done = await fetch(`${suite.service.url}/api/upload/shuffled-1`, {
      headers: { authorization: `Bearer ${suite.admin.token}` },
    });
    expect(await done.json()).toMatchObject({ complete: true, data_id: last.body.id, total_chunks: n });
    const download = await fetch(`${suite.service.url}/api/data/${last.body.id as number}/download`, {
      headers: { authorization: `Bearer ${suite.admin.token}` },
    });
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
    // Nothing of the upload is left behind once complete.
    expect(readdirSync(join(suite.service.dataDir, 'uploads')).filter((d) => d !== 'tmp')).toEqual([]);
  });

  it('completes when all chunks arrive at once, and with the file part before the fields', async () => {
    const bytes = gzipSync(fastqBytes(300, 60, 13));
    const parts = chunksOf(bytes, 1024);
    const base = { filename: 'all.fastq.gz', total_chunks: parts.length, file_id: 'all-at-once' };
    const answers = await Promise.all(
      parts.map((p, i) =>
        postChunk(suite.service.url, suite.admin.token, { ...base, chunk: i, fileFirst: i % 2 === 0 }, p),
      ),
    );
    for (const a of answers) expect(a.status).toBe(200);
    const records = answers.filter((a) => a.body.checksum);
    expect(records.length).toBeGreaterThanOrEqual(1);
    for (const r of records) expect(r.body).toMatchObject({ checksum: sha256(bytes), id: records[0]!.body.id });
  });

  it('keeps each user their own record of identical bytes, stored once', async () => {
    const bytes = fastqBytes(50, 40, 14);
    const a = await uploadWhole(suite.service.url, suite.admin.token, 'same.fastq', bytes);
    const b = await uploadWhole(suite.service.url, bob.token, 'same-for-bob.fastq', bytes);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.body.owner).toBe('bob');
    const key = sha256(bytes);
    expect(existsSync(join(suite.service.dataDir, 'store', key.slice(0, 2), key))).toBe(true);
    // Bob cannot see Alice's record: 404 as for one that does not exist.
    const peek = await fetch(`${suite.service.url}/api/data/${a.body.id as number}`, {
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect(peek.status).toBe(404);
    expect(await peek.json()).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('keeps uploads of different users with the same file_id apart', async () => {
    const a = fastqBytes(10, 30, 15);
    const b = fastqBytes(10, 30, 16);
    const ra = await uploadWhole(suite.service.url, suite.admin.token, 'x.fastq', a, { fileId: 'shared-id' });
    const rb = await uploadWhole(suite.service.url, bob.token, 'y.fastq', b, { fileId: 'shared-id' });
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    expect(rb.body.checksum).toBe(sha256(b));
  });
});
