import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunkedUploadError, chunkCount, uploadFile } from '../../../src/node/chunked-upload-client';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { setupAdmin, type Session } from '../identity/helpers';
import { chunksOf, fastqBytes, postChunk, sha256 } from './upload-helpers';

describe('the chunked upload client against the real service', () => {
  const dir = tempDir();
  let service: TestService;
  let alice: Session;
  beforeAll(async () => {
    service = await startTestService();
    alice = await setupAdmin(service, 'alice');
  });
  afterAll(async () => {
    await service.stop();
    dir.remove();
  });

  it('plans chunks like the spec: size over chunk size, rounded up, at least one', () => {
    expect(chunkCount(0, 8)).toBe(1);
    expect(chunkCount(8, 8)).toBe(1);
    expect(chunkCount(9, 8)).toBe(2);
  });

  it('uploads in order and concurrently, with progress, and the checksum matches', async () => {
    for (const concurrency of [1, 3]) {
      const bytes = fastqBytes(4000, 100, 50 + concurrency);
      const path = join(dir.path, `c${concurrency}.fastq`);
      writeFileSync(path, bytes);
      const progress: number[] = [];
      const res = await uploadFile({
        origin: service.url,
        token: alice.token,
        path,
        chunkSize: 64 * 1024,
        concurrency,
        onProgress: (sent) => progress.push(sent),
      });
      expect(res).toMatchObject({ duplicate: false, checksum: sha256(bytes) });
      expect(res.record).toMatchObject({ size: bytes.length, filename: `c${concurrency}.fastq` });
      expect(progress.at(-1)).toBe(bytes.length);
    }
  });

  it('resumes an upload the service partly holds, and reports duplicates as existing data', async () => {
    const bytes = fastqBytes(3000, 100, 60);
    const path = join(dir.path, 'resume.fastq');
    writeFileSync(path, bytes);
    const parts = chunksOf(bytes, 50_000);
    for (const i of [0, 2, 3]) {
      const r = await postChunk(
        service.url,
        alice.token,
        { filename: 'resume.fastq', chunk: i, total_chunks: parts.length, file_id: 'resume-1' },
        parts[i]!,
      );
      expect(r.status).toBe(200);
    }
    const res = await uploadFile({
      origin: service.url,
      token: alice.token,
      path,
      chunkSize: 50_000,
      fileId: 'resume-1',
    });
    expect(res.checksum).toBe(sha256(bytes));
    const again = await uploadFile({
      origin: service.url,
      token: alice.token,
      path,
      chunkSize: 50_000,
      checksum: sha256(bytes),
    });
    expect(again).toMatchObject({ duplicate: true, dataId: res.dataId });
  });

  it('throws the service error for a refused file', async () => {
    const path = join(dir.path, 'bad.fastq');
    writeFileSync(path, 'not a fastq file\n');
    const err = await uploadFile({ origin: service.url, token: alice.token, path }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChunkedUploadError);
    expect(err).toMatchObject({ status: 400, code: 'INVALID_FORMAT' });
  });
});
