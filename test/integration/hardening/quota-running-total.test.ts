/**
 * The quota reads a running total of each user's record bytes that triggers keep in the same
 * transactions as the records (migration 039, issue 21): it must stay equal to the sum of what
 * the user owns through one-chunk and multi-chunk uploads, a refused duplicate, the same bytes
 * stored by another user, and deletes, and the quota must follow it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { fastqBytes, uploadWhole } from '../data/upload-helpers';
import { addUser, call, type Session } from '../identity/helpers';

describe('the quota running total', () => {
  const suite = adminSuite();
  let carol: Session;
  let dave: Session;
  beforeAll(async () => {
    carol = await addUser(suite.service, suite.admin, 'carol');
    dave = await addUser(suite.service, suite.admin, 'dave');
  });

  const usage = async (username: string) =>
    (
      (await call(suite.service, 'GET', '/api/admin/storage', { token: suite.admin.token })).body
        .largest_users as Array<{
        username: string;
        bytes: number;
      }>
    ).find((u) => u.username === username)?.bytes ?? 0;

  it('follows uploads, a refused duplicate, shared bytes and deletes, and the quota with it', async () => {
    const small = fastqBytes(400, 100, 31); // one chunk
    const large = fastqBytes(2000, 100, 32); // four chunks
    expect(await usage('carol')).toBe(0);
    const one = await uploadWhole(suite.service.url, carol.token, 'small.fastq', small);
    expect(one.status).toBe(200);
    const many = await uploadWhole(suite.service.url, carol.token, 'large.fastq', large, { chunkSize: 128 * 1024 });
    expect(many.status).toBe(200);
    expect(await usage('carol')).toBe(small.length + large.length);

    // Carol's second copy is refused and adds nothing; Dave's copy of the same bytes is his.
    const again = await uploadWhole(suite.service.url, carol.token, 'again.fastq', small);
    expect(again).toMatchObject({ status: 409, body: { code: 'DUPLICATE_FILE' } });
    expect(await usage('carol')).toBe(small.length + large.length);
    const daves = await uploadWhole(suite.service.url, dave.token, 'small.fastq', small);
    expect(daves.status).toBe(200);
    expect(await usage('dave')).toBe(small.length);

    // Deleting Carol's record of the shared bytes leaves Dave's count (and his record) alone.
    expect(
      (await call(suite.service, 'DELETE', `/api/data/${one.body.id as number}`, { token: carol.token })).status,
    ).toBe(204);
    expect(await usage('carol')).toBe(large.length);
    expect(await usage('dave')).toBe(small.length);

    // A quota just above what Carol keeps: the small file no longer fits until the large one goes.
    const put = await call(suite.service, 'PUT', '/api/admin/settings', {
      token: suite.admin.token,
      body: { upload_quota_bytes: large.length + Math.floor(small.length / 2) },
    });
    expect(put.status).toBe(200);
    const refused = await uploadWhole(suite.service.url, carol.token, 'small.fastq', small);
    expect(refused).toMatchObject({ status: 507, body: { code: 'INSUFFICIENT_STORAGE', used_bytes: large.length } });
    expect(
      (await call(suite.service, 'DELETE', `/api/data/${many.body.id as number}`, { token: carol.token })).status,
    ).toBe(204);
    expect(await usage('carol')).toBe(0);
    const fits = await uploadWhole(suite.service.url, carol.token, 'small.fastq', small);
    expect(fits.status).toBe(200);
    expect(await usage('carol')).toBe(small.length);
  });
});
