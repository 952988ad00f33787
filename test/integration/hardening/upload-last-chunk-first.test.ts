/**
 * Issue 11 row 5: a parallel client whose short last chunk arrives before any other, with the
 * file part ahead of the fields that place it (as a FormData built file-first sends it), got
 * 500 INTERNAL (`ENOENT ... rename spool`): the spool waited in uploads/tmp and the upload's own
 * folder did not exist yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { setupAdmin, type Session } from '../identity/helpers';
import { chunksOf, fastqBytes, postChunk, sha256 } from '../data/upload-helpers';

describe('an upload whose short last chunk arrives first (issue 11 row 5)', () => {
  let service: TestService;
  let alice: Session;
  beforeAll(async () => {
    service = await startTestService();
    alice = await setupAdmin(service, 'alice');
  });
  afterAll(async () => {
    await service.stop();
  });

  it('accepts the last chunk first, the rest in parallel, and stores every byte', async () => {
    const bytes = fastqBytes(300, 80, 5);
    const parts = chunksOf(bytes, 8192);
    const n = parts.length;
    expect(parts[n - 1]!.length).toBeLessThan(8192);
    const base = { filename: 'parallel.fastq', total_chunks: n, file_id: 'parallel-1', total_size: bytes.length };
    const first = await postChunk(service.url, alice.token, { ...base, chunk: n - 1, fileFirst: true }, parts[n - 1]!);
    expect(first).toMatchObject({ status: 200, body: { received: 1, total_chunks: n } });
    const rest = await Promise.all(
      parts
        .slice(0, n - 1)
        .map((p, i) => postChunk(service.url, alice.token, { ...base, chunk: i, fileFirst: i % 2 === 0 }, p)),
    );
    for (const r of rest) expect(r.status).toBe(200);
    const record = rest.find((r) => 'checksum' in r.body)!.body;
    expect(record).toMatchObject({ checksum: sha256(bytes), size: bytes.length });
    const download = await service.api(`/api/data/${record.id as number}/download`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await service.api('/api/health')).status).toBe(200);
  });
});
