import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/service/context';
import { expireUploads } from '../../../src/service/uploads/upload-maintenance';
import { startTestService, type TestService } from '../../helpers/test-service';
import { login, setupAdmin, type Session } from '../identity/helpers';
import { chunksOf, fastqBytes, postChunk, uploadWhole } from './upload-helpers';

describe('data records: read, Range downloads, Content-Disposition, expiry of unfinished uploads', () => {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const clock: Clock = { now: () => now };
  let service: TestService;
  let alice: Session;
  let id: number;
  const bytes = fastqBytes(100, 60, 31);
  const auth = () => ({ authorization: `Bearer ${alice.token}` });
  beforeAll(async () => {
    service = await startTestService({ clock });
    alice = await setupAdmin(service, 'alice');
    const res = await uploadWhole(service.url, alice.token, 'Probe «é» "x".fastq', bytes, { chunkSize: 1000 });
    expect(res.status).toBe(200);
    id = res.body.id as number;
  });
  afterAll(async () => {
    await service.stop();
  });

  it('answers the record with its fields and access', async () => {
    const res = await service.api(`/api/data/${id}`, { headers: auth() });
    expect(await res.json()).toMatchObject({
      id,
      filename: 'Probe «é» "x".fastq',
      size: bytes.length,
      data_type: 'fastq',
      source: 'upload',
      owner: 'alice',
      group_owner: null,
      can_edit: true,
      can_share: true,
    });
    const list = await service.api('/api/data/?data_type=fastq', { headers: auth() });
    expect(await list.json()).toMatchObject({ count: 1, page: 1, per_page: 25, items: [{ id }] });
    expect((await service.api('/api/data/999', { headers: auth() })).status).toBe(404);
    expect((await service.api(`/api/data/${id}`)).status).toBe(401);
  });

  it('downloads whole, with a safe Content-Disposition, and in ranges', async () => {
    const whole = await service.api(`/api/data/${id}/download`, { headers: auth() });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(bytes.length));
    expect(whole.headers.get('content-disposition')).toBe(
      `attachment; filename="Probe ___ _x_.fastq"; filename*=UTF-8''Probe%20%C2%AB%C3%A9%C2%BB%20%22x%22.fastq`,
    );
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const cases: Array<[string, number, number]> = [
      ['bytes=0-9', 0, 9],
      ['bytes=100-', 100, bytes.length - 1],
      ['bytes=-16', bytes.length - 16, bytes.length - 1],
      [`bytes=50-${bytes.length + 500}`, 50, bytes.length - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await service.api(`/api/data/${id}/download`, { headers: { ...auth(), range } });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
    const beyond = await service.api(`/api/data/${id}/download`, {
      headers: { ...auth(), range: `bytes=${bytes.length}-` },
    });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    expect(await beyond.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE', status: 416 });
    // A stale If-Range gets the whole file rather than a piece of another version.
    const stale = await service.api(`/api/data/${id}/download`, {
      headers: { ...auth(), range: 'bytes=0-9', 'if-range': '"other"' },
    });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it('removes the chunks of unfinished uploads after 7 days idle, and keeps recent ones', async () => {
    const parts = chunksOf(fastqBytes(50, 50, 32), 1000);
    const base = { filename: 'left.fastq', total_chunks: parts.length };
    await postChunk(service.url, alice.token, { ...base, chunk: 0, file_id: 'old' }, parts[0]!);
    now += 6 * 24 * 3600 * 1000;
    alice = await login(service, 'alice', 'correct horse');
    await postChunk(service.url, alice.token, { ...base, chunk: 0, file_id: 'recent' }, parts[0]!);
    expect(readdirSync(join(service.dataDir, 'uploads')).length).toBe(2);
    now += 2 * 24 * 3600 * 1000;
    alice = await login(service, 'alice', 'correct horse');
    expect(expireUploads(service.ctx)).toBe(1);
    expect((await service.api('/api/upload/old', { headers: auth() })).status).toBe(404);
    expect((await service.api('/api/upload/recent', { headers: auth() })).status).toBe(200);
    expect(readdirSync(join(service.dataDir, 'uploads')).length).toBe(1);
    // The completed file's bytes stay: a record refers to them.
    const res = await service.api(`/api/data/${id}/download`, { headers: auth() });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it('deletes a record and its stored bytes when nothing else refers to them', async () => {
    const other = await uploadWhole(service.url, alice.token, 'gone.fastq', fastqBytes(10, 30, 33));
    const key = other.body.checksum as string;
    const del = await service.api(`/api/data/${other.body.id as number}`, { method: 'DELETE', headers: auth() });
    expect(del.status, await del.clone().text()).toBe(204);
    expect(existsSync(join(service.dataDir, 'store', key.slice(0, 2), key))).toBe(false);
    expect((await service.api(`/api/data/${other.body.id as number}`, { headers: auth() })).status).toBe(404);
  });
});
