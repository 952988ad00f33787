/**
 * Issue 24 item 5: "One account can fill the disk, and then nobody can sign in": unfinished
 * uploads were kept 7 days, there was no quota and no route to abandon an upload. Now: a per-user
 * quota (admin setting), DELETE /api/upload/{file_id}, an expiry the admin sets, and a storage
 * report of free space and the largest users. (Sign-in on a full disk: disk-full.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireUploads } from '../../../src/service/uploads/upload-maintenance';
import { startTestService, type TestService } from '../../helpers/test-service';
import { fastqBytes, postChunk, chunksOf } from '../data/upload-helpers';
import { addUser, call, login, setupAdmin, type Session } from '../identity/helpers';

describe('storage you can recover (issue 24 item 5)', () => {
  const clock = { t: Date.parse('2026-03-01T09:00:00Z'), now: () => clock.t };
  let service: TestService;
  let admin: Session;
  let alice: Session;
  let bob: Session;
  beforeAll(async () => {
    service = await startTestService({ clock });
    admin = await setupAdmin(service, 'admin');
    alice = await addUser(service, admin, 'alice');
    bob = await addUser(service, admin, 'bob');
  });
  afterAll(async () => {
    await service.stop();
  });

  const settings = (body: unknown, token = admin.token) => call(service, 'PUT', '/api/admin/settings', { token, body });

  it('settings: admins only, validated, defaults until changed', async () => {
    const got = await call(service, 'GET', '/api/admin/settings', { token: admin.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ upload_expiry_hours: 72, invitation_domains: [] });
    expect((got.body.upload_quota_bytes as number) > 0).toBe(true);
    expect((await call(service, 'GET', '/api/admin/settings', { token: alice.token })).status).toBe(403);
    expect((await settings({ upload_quota_bytes: 1 }, alice.token)).status).toBe(403);
    for (const bad of [{}, { upload_quota_bytes: -1 }, { upload_expiry_hours: 0 }, { nonsense: 1 }]) {
      expect(await settings(bad)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    }
  });

  it('a user past their quota is refused with 507 and the numbers; others are not', async () => {
    expect((await settings({ upload_quota_bytes: 1_000_000 })).status).toBe(200);
    const first = fastqBytes(2500, 100, 1); // ~600 kB
    const up = await postChunk(
      service.url,
      alice.token,
      { filename: 'a.fastq', chunk: 0, total_chunks: 1, file_id: 'q1' },
      first,
    );
    expect(up.status).toBe(200);
    // A second file of the same size, its size declared: refused before any byte is stored.
    const second = fastqBytes(2500, 100, 2);
    const declared = await postChunk(
      service.url,
      alice.token,
      { filename: 'b.fastq', chunk: 0, total_chunks: 1, file_id: 'q2', total_size: second.length },
      second,
    );
    expect(declared).toMatchObject({ status: 507, body: { code: 'INSUFFICIENT_STORAGE', status: 507 } });
    expect(declared.body.error).toMatch(/quota/);
    expect(declared.body.quota_bytes).toBe(1_000_000);
    // Undeclared: chunk by chunk, refused once the quota is reached (at most one chunk past it).
    const parts = chunksOf(second, 256 * 1024);
    const answers: number[] = [];
    for (let i = 0; i < parts.length; i++) {
      const r = await postChunk(
        service.url,
        alice.token,
        { filename: 'c.fastq', chunk: i, total_chunks: parts.length, file_id: 'q3' },
        parts[i]!,
      );
      answers.push(r.status);
    }
    expect(answers).toContain(507);
    // Bob's quota is his own.
    const bobs = await postChunk(
      service.url,
      bob.token,
      { filename: 'b.fastq', chunk: 0, total_chunks: 1, file_id: 'q2' },
      second,
    );
    expect(bobs.status).toBe(200);
  });

  it('the storage report shows free space and the largest users', async () => {
    const report = await call(service, 'GET', '/api/admin/storage', { token: admin.token });
    expect(report.status).toBe(200);
    expect(report.body.free_bytes as number).toBeGreaterThan(0);
    expect(report.body.total_bytes as number).toBeGreaterThanOrEqual(report.body.free_bytes as number);
    const users = report.body.largest_users as Array<{ username: string; bytes: number; quota_bytes: number }>;
    expect(users[0]!.username).toBe('alice');
    expect(users[0]!.bytes).toBeGreaterThan(600_000);
    expect(users.map((u) => u.bytes)).toEqual([...users.map((u) => u.bytes)].sort((a, b) => b - a));
    expect((await call(service, 'GET', '/api/admin/storage', { token: alice.token })).status).toBe(403);
  });

  it('abandoning an unfinished upload frees its bytes at once; only its owner can', async () => {
    const usage = async () =>
      (
        (await call(service, 'GET', '/api/admin/storage', { token: admin.token })).body.largest_users as Array<{
          username: string;
          bytes: number;
        }>
      ).find((u) => u.username === 'alice')!.bytes;
    const before = await usage();
    expect((await call(service, 'GET', '/api/upload/q3', { token: alice.token })).body.complete).toBe(false);
    expect((await call(service, 'DELETE', '/api/upload/q3', { token: bob.token })).status).toBe(404);
    expect((await call(service, 'DELETE', '/api/upload/q3', { token: alice.token })).status).toBe(204);
    expect((await call(service, 'GET', '/api/upload/q3', { token: alice.token })).status).toBe(404);
    expect(await usage()).toBeLessThan(before);
    expect((await call(service, 'DELETE', '/api/upload/q3', { token: alice.token })).status).toBe(404);
    // A complete upload is not abandoned: its data record is deleted instead.
    expect(await call(service, 'DELETE', '/api/upload/q1', { token: alice.token })).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT' },
    });
  });

  it('unfinished uploads expire after the hours the admin sets', async () => {
    expect((await settings({ upload_quota_bytes: 10_000_000, upload_expiry_hours: 2 })).status).toBe(200);
    const bytes = fastqBytes(3000, 100, 5);
    const parts = chunksOf(bytes, 256 * 1024);
    const base = { filename: 'stale.fastq', total_chunks: parts.length, file_id: 'stale' };
    expect((await postChunk(service.url, bob.token, { ...base, chunk: 0 }, parts[0]!)).status).toBe(200);
    clock.t += 60 * 60 * 1000;
    expireUploads(service.ctx);
    // (Access tokens live less than an hour: bob signs in again.)
    bob = await login(service, 'bob', 'password-bob');
    expect((await call(service, 'GET', '/api/upload/stale', { token: bob.token })).status).toBe(200);
    clock.t += 61 * 60 * 1000;
    expect(expireUploads(service.ctx)).toBe(1);
    bob = await login(service, 'bob', 'password-bob');
    expect((await call(service, 'GET', '/api/upload/stale', { token: bob.token })).status).toBe(404);
  });
});
