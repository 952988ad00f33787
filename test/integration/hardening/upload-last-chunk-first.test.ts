/**
 * Issue 11 row 5: a parallel client whose short last chunk arrives before any other, with the
 * file part ahead of the fields that place it (as a FormData built file-first sends it), got
 * 500 INTERNAL (`ENOENT ... rename spool`): the spool waited in uploads/tmp and the upload's own
 * folder did not exist yet.
 */
import { describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { chunksOf, fastqBytes, postChunk, sha256 } from '../data/upload-helpers';

describe('an upload whose short last chunk arrives first (issue 11 row 5)', () => {
  const suite = adminSuite('alice');

  it('accepts the last chunk first, the rest in parallel, and stores every byte', async () => {
    const bytes = fastqBytes(300, 80, 5);
    const parts = chunksOf(bytes, 8192);
    const n = parts.length;
    expect(parts[n - 1]!.length).toBeLessThan(8192);
    const base = { filename: 'parallel.fastq', total_chunks: n, file_id: 'parallel-1', total_size: bytes.length };
    const first = await postChunk(
      suite.service.url,
      suite.admin.token,
      { ...base, chunk: n - 1, fileFirst: true },
      parts[n - 1]!,
    );
    expect(first).toMatchObject({ status: 200, body: { received: 1, total_chunks: n } });
    const rest = await Promise.all(
      parts
        .slice(0, n - 1)
        .map((p, i) =>
          postChunk(suite.service.url, suite.admin.token, { ...base, chunk: i, fileFirst: i % 2 === 0 }, p),
        ),
    );
    for (const r of rest) expect(r.status).toBe(200);
    const record = rest.find((r) => 'checksum' in r.body)!.body;
    expect(record).toMatchObject({ checksum: sha256(bytes), size: bytes.length });
    const download = await suite.service.api(`/api/data/${record.id as number}/download`, {
      headers: { authorization: `Bearer ${suite.admin.token}` },
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await suite.service.api('/api/health')).status).toBe(200);
  });
});
