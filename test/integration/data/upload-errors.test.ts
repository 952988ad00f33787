import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { chunksOf, fastqBytes, postChunk, sha256, uploadWhole } from './upload-helpers';

describe('chunked upload: every error of the upload table, provoked for real', () => {
  const suite = adminSuite('alice');
  const fq = fastqBytes(30, 40, 21);
  const post = (fields: Parameters<typeof postChunk>[2], bytes: Buffer, token: string | null = suite.admin.token) =>
    postChunk(suite.service.url, token, fields, bytes);
  const one = (filename: string, extra: Record<string, unknown> = {}) => ({
    filename,
    chunk: 0,
    total_chunks: 1,
    file_id: `${filename}-${Math.random()}`,
    ...extra,
  });

  it('UNAUTHENTICATED without or with a bad token', async () => {
    for (const token of [null, 'not-a-jwt']) {
      const res = await post(one('a.fastq'), fq, token);
      expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED', status: 401 } });
    }
  });

  it('INVALID_FORMAT by extension, by content, and for gzip by magic and by inflated content', async () => {
    const cases: Array<[string, Buffer]> = [
      ['reads.txt', fq],
      ['reads.bam', fq],
      ['reads.fastq', Buffer.from('>fasta header\nACGT\n')],
      ['reads.fastq', Buffer.from('@r1\nACGT\n+\nIII\n')],
      ['reads.fastq.gz', fq],
      ['reads.fq.gz', gzipSync(Buffer.from('hello, not fastq\n'))],
      ['reads.fastq', Buffer.alloc(0)],
    ];
    for (const [name, bytes] of cases) {
      const res = await post(one(name), bytes);
      expect(res.status, name).toBe(400);
      expect(res.body, name).toMatchObject({ code: 'INVALID_FORMAT', status: 400 });
    }
    // A first chunk that breaks off mid-record is judged on what it has, and accepted.
    const parts = chunksOf(fq, 100);
    const ok = await post({ filename: 'cut.fq', chunk: 0, total_chunks: parts.length, file_id: 'cut' }, parts[0]!);
    expect(ok.status).toBe(200);
    const gz = gzipSync(fq);
    const gzOk = await uploadWhole(suite.service.url, suite.admin.token, 'ok.fq.gz', gz, { chunkSize: 50 });
    expect(gzOk.status).toBe(200);
  });

  it('takes references (FASTA, GTF, GFF3, BED; gzip too) as typed data, and refuses ones whose content disagrees', async () => {
    const fasta = Buffer.from('>chr1\n' + 'ACGT'.repeat(400).replace(/(.{60})/g, '$1\n') + '\n');
    const good: Array<[string, Buffer, string]> = [
      ['genome.fa', fasta, 'fasta'],
      ['genome2.fna.gz', gzipSync(Buffer.concat([fasta, Buffer.from('>chr2\nGG\n')])), 'fasta'],
      ['genes.gtf', Buffer.from('chr1\tx\tgene\t1\t50\t.\t+\t.\tgene_id "g";\n'), 'gtf'],
      ['genes.gff3', Buffer.from('##gff-version 3\nchr1\tx\tgene\t1\t50\t.\t+\t.\tID=g\n'), 'gff3'],
      ['targets.bed', Buffer.from('chr1\t0\t50\tg\n'), 'bed'],
    ];
    for (const [name, bytes, type] of good) {
      // In small chunks: the content check sees only the head of the first chunk.
      const res = await uploadWhole(suite.service.url, suite.admin.token, name, bytes, { chunkSize: 40 });
      expect(res.status, name).toBe(200);
      expect(res.body, name).toMatchObject({ filename: name, data_type: type });
    }
    const bad: Array<[string, Buffer]> = [
      ['genome.fa', fq],
      ['genome.fasta', Buffer.from('{"not": "fasta"}\n')],
      ['genome.fa.gz', fasta],
      ['genes.gtf', Buffer.from('##gff-version 3\nchr1\tx\tgene\t1\t50\t.\t+\t.\tID=g\n')],
      ['genes.gff3', Buffer.from('chr1\tx\tgene\t1\t50\t.\t+\t.\tgene_id "g";\n')],
      ['targets.bed', fasta],
      ['genome.fa.fai', Buffer.from('chr1\t1600\t6\t60\t61\n')],
    ];
    for (const [name, bytes] of bad) {
      const res = await post(one(name), bytes);
      expect(res.status, name).toBe(400);
      expect(res.body, name).toMatchObject({ code: 'INVALID_FORMAT', status: 400 });
    }
  });

  it('PAYLOAD_TOO_LARGE for a chunk over 50 MB and a file over 50 GB', async () => {
    const big = Buffer.alloc(50 * 1000 * 1000 + 1, 0x41);
    fq.copy(big);
    const chunk = await post({ filename: 'big.fastq', chunk: 0, total_chunks: 2, file_id: 'big' }, big);
    expect(chunk).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE', status: 413 } });
    const file = await post(one('huge.fastq', { total_chunks: 2000, total_size: 50 * 1000 ** 3 + 1 }), fq);
    expect(file).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
    // Without total_size, the chunk count times the chunk size tells.
    const many = await post({ filename: 'many.fastq', chunk: 0, total_chunks: 60_000_000, file_id: 'many' }, fq);
    expect(many).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('VALIDATION_ERROR for a chunk index outside total_chunks and total_chunks against total_size', async () => {
    const outside = await post({ filename: 'o.fastq', chunk: 3, total_chunks: 3, file_id: 'o' }, fq);
    expect(outside).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', fields: { chunk: expect.any(String) } },
    });
    const negative = await post({ filename: 'o.fastq', chunk: -1, total_chunks: 3, file_id: 'o2' }, fq);
    expect(negative.status).toBe(400);
    const tooMany = await post(one('t.fastq', { total_chunks: 10, total_size: 5 }), fq);
    expect(tooMany).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    const tooFew = await post(one('t.fastq', { total_chunks: 1, total_size: 60 * 1000 * 1000 }), fq);
    expect(tooFew).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    // Chunk sizes that cannot make total_size are refused as they arrive.
    const sized = await post({ filename: 's.fastq', chunk: 0, total_chunks: 2, file_id: 's', total_size: 10_000 }, fq);
    expect(sized).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    const missing = await postChunk(suite.service.url, suite.admin.token, { filename: 'm.fastq' } as never, fq);
    expect(missing).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('refuses file names that are paths, hold control characters or are too long', async () => {
    for (const name of [
      '../../etc/x.fastq',
      '/abs/x.fastq',
      'a\\b.fastq',
      'nul\u0000.fastq',
      'bell\u0007.fastq',
      `${'n'.repeat(300)}.fastq`,
      '.hidden.fastq',
    ]) {
      const res = await post(one(name), fq);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('UPLOAD_CONFLICT for a file_id reused with another filename or chunk count', async () => {
    const parts = chunksOf(fq, 500);
    const base = { filename: 'c.fastq', total_chunks: parts.length, file_id: 'conflict' };
    expect((await post({ ...base, chunk: 0 }, parts[0]!)).status).toBe(200);
    const renamed = await post({ ...base, filename: 'd.fastq', chunk: 1 }, parts[1]!);
    expect(renamed).toMatchObject({ status: 409, body: { code: 'UPLOAD_CONFLICT', status: 409 } });
    const recounted = await post({ ...base, total_chunks: parts.length + 1, chunk: 1 }, parts[1]!);
    expect(recounted).toMatchObject({ status: 409, body: { code: 'UPLOAD_CONFLICT' } });
    const resized = await post({ ...base, chunk: 1 }, parts[1]!.subarray(0, 100));
    expect(resized).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('CHECKSUM_MISMATCH for a chunk and for the assembled file; the upload can start over', async () => {
    const parts = chunksOf(fq, 600);
    const base = {
      filename: 'sum.fastq',
      total_chunks: parts.length,
      file_id: 'sum',
      checksum: sha256(Buffer.from('x')),
    };
    const badChunk = await post({ ...base, chunk: 0, chunk_checksum: sha256(Buffer.from('y')) }, parts[0]!);
    expect(badChunk).toMatchObject({ status: 422, body: { code: 'CHECKSUM_MISMATCH', status: 422 } });
    const goodChunk = await post({ ...base, chunk: 0, chunk_checksum: sha256(parts[0]!) }, parts[0]!);
    expect(goodChunk.status).toBe(200);
    let last = goodChunk;
    for (let i = 1; i < parts.length; i++) last = await post({ ...base, chunk: i }, parts[i]!);
    expect(last).toMatchObject({ status: 422, body: { code: 'CHECKSUM_MISMATCH' } });
    const status = await fetch(`${suite.service.url}/api/upload/sum`, {
      headers: { authorization: `Bearer ${suite.admin.token}` },
    });
    expect(await status.json()).toMatchObject({ complete: false, received_chunks: [] });
  });

  it('DUPLICATE_FILE late (after assembly) and early (checksum on the first chunk, nothing stored)', async () => {
    const bytes = fastqBytes(40, 40, 22);
    const first = await uploadWhole(suite.service.url, suite.admin.token, 'orig.fastq', bytes, { checksum: false });
    expect(first.status).toBe(200);
    const late = await uploadWhole(suite.service.url, suite.admin.token, 'copy.fastq', bytes, {
      chunkSize: 700,
      checksum: false,
    });
    expect(late).toMatchObject({ status: 409, body: { code: 'DUPLICATE_FILE', status: 409, data_id: first.body.id } });
    const parts = chunksOf(bytes, 700);
    const early = await post(
      { filename: 'copy2.fastq', chunk: 0, total_chunks: parts.length, file_id: 'early', checksum: sha256(bytes) },
      parts[0]!,
    );
    expect(early).toMatchObject({ status: 409, body: { code: 'DUPLICATE_FILE', data_id: first.body.id } });
    const status = await fetch(`${suite.service.url}/api/upload/early`, {
      headers: { authorization: `Bearer ${suite.admin.token}` },
    });
    expect(status.status).toBe(404);
  });

  it('refuses a body that is not multipart, or has no file part', async () => {
    const json = await suite.service.api('/api/upload', {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.admin.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    const form = new FormData();
    form.append('filename', 'a.fastq');
    const noFile = await suite.service.api('/api/upload', {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.admin.token}` },
      body: form,
    });
    expect(noFile.status).toBe(400);
    expect(await noFile.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('refuses a field after the file part that would change the chunk, and nothing is stored', async () => {
    // The chunk is placed when its file part starts: a chunk_checksum (or another file_id)
    // sent after the bytes could no longer be honoured, so it is refused, never half-applied.
    const fileId = `late-${Math.random()}`;
    const cases: Array<[string, string]> = [
      ['chunk_checksum', sha256(fq)],
      ['file_id', `${fileId}-other`],
    ];
    for (const [name, value] of cases) {
      const form = new FormData();
      for (const [k, v] of Object.entries(one('late.fastq', { file_id: fileId }))) form.append(k, String(v));
      form.append('file', new Blob([new Uint8Array(fq)]), 'late.fastq');
      form.append(name, value);
      const res = await suite.service.api('/api/upload', {
        method: 'POST',
        headers: { authorization: `Bearer ${suite.admin.token}` },
        body: form,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { [name]: expect.any(String) } });
    }
    const status = await suite.service.api(`/api/upload/${encodeURIComponent(fileId)}`, {
      headers: { authorization: `Bearer ${suite.admin.token}` },
    });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ received_chunks: [], complete: false });
  });
});
