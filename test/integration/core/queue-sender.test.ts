/**
 * The upload queue's chunk sender (job-runner) against the real service, one job at a time:
 * chunks in order and several in flight with progress that ends at the file's size and the
 * service's checksum; resuming from chunks the service already holds without sending them
 * again; a duplicate as the existing record; a refused file failing with the service's reason.
 * (It replaces the tests of the separate chunked upload client this project no longer has.)
 */
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/core/service-client/service-client';
import { BandwidthLimiter } from '../../../src/main/core/uploads/bandwidth';
import { PRE_HASH_LIMIT, runJob, type RunOutcome } from '../../../src/main/core/uploads/job-runner';
import { JobStore } from '../../../src/main/core/uploads/job-store';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { chunkCount } from '../../../src/shared/service-client/multipart';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { chunksOf, fastqBytes, postChunk, sha256 } from '../data/upload-helpers';
import { setupAdmin, type Session } from '../identity/helpers';
import { getDataById } from '../../../src/shared/service-api/endpoints';

describe("the upload queue's chunk sender against the real service", () => {
  const dir = tempDir();
  let service: TestService;
  let alice: Session;
  let client: ServiceClient;
  let store: JobStore;
  let close: () => void;
  beforeAll(async () => {
    service = await startTestService();
    alice = await setupAdmin(service, 'alice');
    client = new ServiceClient({ baseUrl: service.url, auth: { token: async () => alice.token, invalidate() {} } });
    const db = openQueueDb(join(dir.path, 'state'));
    store = new JobStore(db);
    close = () => db.close();
  });
  afterAll(async () => {
    close();
    await client.close();
    await service.stop();
    dir.remove();
  });

  /** Runs one job of `path` in chunks of `chunkSize`; answers its outcome and what was sent. */
  async function send(
    path: string,
    chunkSize: number,
    options: {
      chunkWindow?: number;
      preHashLimit?: number;
      prepare?: (fileId: string) => Promise<void>;
      /** The scheduler's stat of a one-chunk file at its launch (the queue passes it on). */
      launchedWith?: { size: number; mtimeMs: number };
    } = {},
  ) {
    let row = store.insertJob({
      profileId: 'local',
      sources: [path],
      filename: path.split('/').pop()!,
      role: 'data',
      groupId: null,
      priority: 'normal',
      chunkSize,
    });
    if (options.prepare) {
      // A job that sent before records its size: the sender then asks the service what it holds.
      const { size, mtimeMs } = statSync(path);
      row = store.update(row.id, { size, mtime_ms: mtimeMs });
      await options.prepare(row.file_id);
    }
    let sent = 0;
    let found = 0;
    const outcome: RunOutcome = await runJob(row, {
      store,
      client,
      limiter: new BandwidthLimiter(() => null),
      signal: new AbortController().signal,
      preHashLimit: options.preHashLimit ?? PRE_HASH_LIMIT,
      chunkWindow: options.chunkWindow,
      ...(options.launchedWith ? { launchedWith: options.launchedWith } : {}),
      onBytes: (n, network = true) => (network ? (sent += n) : (found += n)),
      onState: () => undefined,
    });
    return { outcome, sent, found, job: store.job(row.id)! };
  }

  it('plans chunks like the spec: size over chunk size, rounded up, at least one', () => {
    expect(chunkCount(0, 8)).toBe(1);
    expect(chunkCount(8, 8)).toBe(1);
    expect(chunkCount(9, 8)).toBe(2);
  });

  it('uploads in order and with chunks in flight, hashing while reading, and the checksums match', async () => {
    for (const window of [1, 3]) {
      const bytes = fastqBytes(4000, 100, 50 + window);
      const path = join(dir.path, `w${window}.fastq`);
      writeFileSync(path, bytes);
      // No hashing up front: the checksum goes with the last chunk, as for a large file.
      const { outcome, sent, job } = await send(path, 64 * 1024, { chunkWindow: window, preHashLimit: 0 });
      expect(outcome).toMatchObject({ kind: 'completed', deduplicated: false, checksum: sha256(bytes) });
      expect(sent).toBe(bytes.length);
      // Every acknowledged chunk is journalled with the job's byte count.
      expect(job.bytes_sent).toBe(bytes.length);
      const record = await client.call(getDataById, { params: { id: (outcome as { dataId: number }).dataId } });
      expect(record).toMatchObject({ checksum: sha256(bytes), size: bytes.length, filename: `w${window}.fastq` });
    }
  });

  it('resumes an upload the service partly holds, sending only the missing chunks', async () => {
    const bytes = fastqBytes(3000, 100, 60);
    const path = join(dir.path, 'resume.fastq');
    writeFileSync(path, bytes);
    const parts = chunksOf(bytes, 50_000);
    const held = [0, 2, 3];
    const { outcome, sent, found } = await send(path, 50_000, {
      preHashLimit: 0,
      prepare: async (fileId) => {
        for (const i of held) {
          const r = await postChunk(
            service.url,
            alice.token,
            { filename: 'resume.fastq', chunk: i, total_chunks: parts.length, file_id: fileId },
            parts[i]!,
          );
          expect(r.status).toBe(200);
        }
      },
    });
    expect(outcome).toMatchObject({ kind: 'completed', deduplicated: false, checksum: sha256(bytes) });
    const heldBytes = held.reduce((n, i) => n + parts[i]!.length, 0);
    expect(found).toBe(heldBytes);
    expect(sent).toBe(bytes.length - heldBytes);
  });

  it('resumes from its journal, and restarts a file whose bytes changed under the same size and time', async () => {
    // The journal holds a fingerprint of each acknowledged chunk (the file's sha256 up to the
    // chunk's end): a resumed job reads the file again and compares, so bytes changed behind an
    // unchanged size and modification time restart the job before more is sent.
    const bytes = fastqBytes(4000, 100, 71);
    const path = join(dir.path, 'journalled.fastq');
    writeFileSync(path, bytes);
    const chunk = 64 * 1024;
    const run = async (row: ReturnType<JobStore['job']>, stopAfter: number | null) => {
      const ctl = new AbortController();
      let sent = 0;
      const outcome = await runJob(row!, {
        store,
        client,
        limiter: new BandwidthLimiter(() => null),
        signal: ctl.signal,
        preHashLimit: 0,
        chunkWindow: 1,
        onBytes: (n, network = true) => {
          if (!network) return;
          sent += n;
          if (stopAfter !== null && sent >= stopAfter) ctl.abort();
        },
        onState: () => undefined,
      });
      return { outcome, sent };
    };
    const fresh = () =>
      store.insertJob({
        profileId: 'local',
        sources: [path],
        filename: 'journalled.fastq',
        role: 'data',
        groupId: null,
        priority: 'normal',
        chunkSize: chunk,
      });

    // Stopped after two chunks, then resumed with the file as it was: only the rest is sent.
    const first = fresh();
    expect((await run(store.job(first.id), 2 * chunk)).outcome).toEqual({ kind: 'aborted' });
    const journalled = store.journal(first.id);
    expect(journalled.size).toBeGreaterThanOrEqual(2);
    const resumed = await run(store.job(first.id), null);
    expect(resumed.outcome).toMatchObject({ kind: 'completed', checksum: sha256(bytes) });
    expect(resumed.sent).toBe(bytes.length - [...journalled.values()].reduce((n, c) => n + c.size, 0));

    // Stopped again on a new job, then one byte of the first chunk changed, size and time kept.
    // A whole second as the file's time, which utimes sets back exactly.
    const time = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    writeFileSync(path, fastqBytes(4000, 100, 72));
    utimesSync(path, time, time);
    const second = fresh();
    expect((await run(store.job(second.id), 2 * chunk)).outcome).toEqual({ kind: 'aborted' });
    const { size, mtimeMs } = statSync(path);
    const changed = Buffer.from(fastqBytes(4000, 100, 72));
    changed[chunk - 100] = changed[chunk - 100] === 0x41 ? 0x43 : 0x41;
    writeFileSync(path, changed);
    utimesSync(path, time, time);
    expect(statSync(path)).toMatchObject({ size, mtimeMs });
    const after = await run(store.job(second.id), null);
    expect(after.outcome).toEqual({ kind: 'restart', reason: expect.stringMatching(/changed \(content\)/) });
    expect(after.sent).toBe(0);
  });

  it('restarts a one-chunk file that changed between its launch and its read, before sending a byte', async () => {
    // A file read whole is checked on the handle that read it, right after the read, against
    // the stat its launch took; nothing checks it by path after the upload (issue 21).
    const path = join(dir.path, 'rewritten.fastq');
    writeFileSync(path, fastqBytes(50, 60, 1));
    const { size, mtimeMs } = statSync(path);
    writeFileSync(path, fastqBytes(50, 60, 2));
    utimesSync(path, new Date(), new Date(mtimeMs + 5000));
    expect(statSync(path).size).toBe(size);
    const { outcome, sent } = await send(path, 1024 * 1024, { launchedWith: { size, mtimeMs } });
    expect(outcome).toEqual({ kind: 'restart', reason: expect.stringMatching(/changed/) });
    expect(sent).toBe(0);
    // With the launch's stat current, the same file goes in one request and completes.
    const now = statSync(path);
    const again = await send(path, 1024 * 1024, { launchedWith: { size: now.size, mtimeMs: now.mtimeMs } });
    expect(again.outcome).toMatchObject({ kind: 'completed', checksum: sha256(fastqBytes(50, 60, 2)) });
    expect(again.sent).toBe(size);
  });

  it('takes a duplicate (409 DUPLICATE_FILE) as the existing record', async () => {
    const bytes = fastqBytes(500, 100, 61);
    const first = join(dir.path, 'dup-a.fastq');
    const second = join(dir.path, 'dup-b.fastq');
    writeFileSync(first, bytes);
    writeFileSync(second, bytes);
    const a = await send(first, 64 * 1024);
    expect(a.outcome).toMatchObject({ kind: 'completed', deduplicated: false });
    // The sender leaves completion (and the local hash index) to the queue: only the service
    // recognises the bytes.
    const b = await send(second, 64 * 1024);
    expect(b.outcome).toEqual({
      kind: 'completed',
      dataId: (a.outcome as { dataId: number }).dataId,
      deduplicated: true,
      checksum: sha256(bytes),
    });
  });

  it("fails a refused file with the service's reason, and no retry", async () => {
    const path = join(dir.path, 'bad.fastq');
    writeFileSync(path, 'not a fastq file\n');
    const { outcome } = await send(path, 64 * 1024);
    expect(outcome.kind).toBe('failed');
    expect((outcome as { message: string }).message).toMatch(/FASTQ|format/i);
  });
});
