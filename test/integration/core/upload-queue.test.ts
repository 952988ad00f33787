import { appendFileSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { enqueueData, enqueueLane, enqueueSamples } from '../../../src/main/core/ingest/confirm';
import { generateLane } from '../../helpers/fastq-generator';
import { openQueue, sha256Of, writeFastq } from './queue-harness';
import { coreSuite } from './core-suite';
import { GatedWindow } from './gated-window';
import { getDataById, getLanesById, getSamples, getUploadByFileId } from '../../../src/shared/service-api/endpoints';
import type { ServiceClient } from '../../../src/main/core/service-client/service-client';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { tempDir } from '../../helpers/temp';
import { JobStore, type JobRow } from '../../../src/main/core/uploads/job-store';

const core = coreSuite({ prefix: 'laneway-files-' });

async function dataChecksum(h: { client: ServiceClient }, id: number): Promise<string> {
  return (await h.client.call(getDataById, { params: { id } })).checksum;
}

describe('upload queue against the real service', () => {
  it('uploads several multi-chunk files with the right sha256, then deduplicates a second drop locally', async () => {
    const h = await openQueue(core.service);
    const paths = [1, 2, 3].map((i) => writeFastq(join(core.root, `multi_${i}.fastq.gz`), 3000 + i * 500));
    await enqueueData(h.queue, paths);
    await h.queue.waitForIdle();
    const jobs = h.queue.list().jobs;
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed']);
    for (const j of jobs) expect(await dataChecksum(h, j.data_id!)).toBe(sha256Of(j.path));
    expect(jobs.every((j) => j.bytes_total > 64 * 1024)).toBe(true); // more than one chunk each

    await enqueueData(h.queue, [paths[0]!]);
    await h.queue.waitForIdle();
    const again = h.queue.list().jobs.at(-1)!;
    expect(again).toMatchObject({ state: 'completed', deduplicated: true, data_id: jobs[0]!.data_id });
    await h.close();
  });

  it('treats 409 DUPLICATE_FILE as success with the existing data id (new queue, no local index)', async () => {
    const first = await openQueue(core.service);
    const path = writeFastq(join(core.root, 'dup.fastq'), 500);
    await enqueueData(first.queue, [path]);
    await first.queue.waitForIdle();
    const original = first.queue.list().jobs[0]!;
    await first.close();
    const copy = join(core.root, 'dup-copy.fastq');
    copyFileSync(path, copy);
    const second = await openQueue(core.service);
    await enqueueData(second.queue, [copy]);
    await second.queue.waitForIdle();
    expect(second.queue.list().jobs[0]).toMatchObject({
      state: 'completed',
      deduplicated: true,
      data_id: original.data_id,
    });
    await second.close();
  });

  it('fails for good with the service message on bad content, without retries', async () => {
    const h = await openQueue(core.service);
    const path = join(core.root, 'fake.fastq');
    writeFileSync(path, 'this is not a fastq file\n');
    await enqueueData(h.queue, [path]);
    await h.queue.waitForIdle();
    const job = h.queue.list().jobs[0]!;
    expect(job.state).toBe('failed');
    expect(job.attempts).toBe(0);
    expect(job.error).toMatch(/fastq/i);
    await h.close();
  });

  it('restarts a file that changed during upload and uploads what is on disk in the end', async () => {
    // The file changes while the queue holds after two chunks: racing the change against the
    // upload (a 1 ms poll) could lose on a loaded machine, the whole file sent first.
    const window = new GatedWindow(2);
    const h = await openQueue(core.service, { preHashLimit: 0, sendWindow: window });
    const path = writeFastq(join(core.root, 'growing.fastq'), 4000);
    await enqueueData(h.queue, [path]);
    await window.firstAcked;
    appendFileSync(path, '@extra\nACGT\n+\nIIII\n');
    window.openGate();
    await h.queue.waitForIdle();
    const job = h.queue.list().jobs[0]!;
    expect(job.state).toBe('completed');
    expect(h.queue.store.job(job.id)!.restarts).toBeGreaterThanOrEqual(1);
    expect(await dataChecksum(h, job.data_id!)).toBe(sha256Of(path));
    await h.close();
  });

  it('resumes a one-chunk file left as its launch wrote it (size, no checksum) by a crash, before and after the service stored it', async () => {
    // The launch of a one-chunk file writes its size and mtime with its state, and its checksum
    // waits for the completion (issue 21): rewind finished rows to what a crash then leaves.
    const state = tempDir('laneway-queue-').path;
    const h = await openQueue(core.service, {}, state);
    const sent = writeFastq(join(core.root, 'one-chunk-sent.fastq'), 100);
    const unsent = writeFastq(join(core.root, 'one-chunk-unsent.fastq'), 100);
    await enqueueData(h.queue, [sent, unsent]);
    await h.queue.waitForIdle();
    const [first, second] = h.queue.list().jobs.sort((a, b) => a.id - b.id);
    expect(first!.state).toBe('completed');
    const before = h.queue.store.job(first!.id)!;
    expect(before.size).toBeLessThanOrEqual(before.chunk_size);
    await h.close();

    const db = openQueueDb(state);
    db.exec('DELETE FROM file_index; DELETE FROM hash_index');
    db.prepare(`UPDATE jobs SET state = 'uploading', data_id = NULL, checksum = NULL, bytes_sent = 0 WHERE id = ?`).run(
      first!.id,
    );
    // The second never reached the service: a file_id it has not seen.
    db.prepare(
      `UPDATE jobs SET state = 'uploading', data_id = NULL, checksum = NULL, bytes_sent = 0, file_id = ? WHERE id = ?`,
    ).run(randomUUID(), second!.id);
    db.close();

    const again = await openQueue(core.service, {}, state);
    await again.queue.waitForIdle();
    const resumed = again.queue.store.job(first!.id)!;
    expect(resumed.state).toBe('completed');
    expect(resumed.data_id).toBe(first!.data_id);
    expect(resumed.checksum).toBe(sha256Of(sent));
    const other = again.queue.store.job(second!.id)!;
    expect(other.state).toBe('completed');
    expect(other.checksum).toBe(sha256Of(unsent));
    expect(await dataChecksum(again, other.data_id!)).toBe(sha256Of(unsent));
    await again.close();
  });

  it('recovers from a commit of its own that fails (an injected fault): every file once on the service', async () => {
    // The fault: the eightieth launch's turn (past the first 64, so a turn with completions in
    // it) also breaks a deferred foreign key, so its commit fails and rolls back that turn's
    // launches and completions, as a full disk would. Without the queue's recovery a completion
    // undone leaves its job uploading for ever, and waitForIdle never answers.
    let launches = 0;
    class FaultyStore extends JobStore {
      override updateKnown(row: JobRow, changes: Partial<Omit<JobRow, 'id'>>): JobRow {
        const out = super.updateKnown(row, changes);
        if (changes.state === 'uploading' && ++launches === 80) {
          this.db.pragma('defer_foreign_keys = ON');
          this.db.prepare('UPDATE jobs SET group_id = -1 WHERE id = ?').run(row.id);
        }
        return out;
      }
    }
    const log: string[] = [];
    const h = await openQueue(core.service, { storeFor: (db) => new FaultyStore(db), log: (m) => log.push(m) });
    const paths = Array.from({ length: 90 }, (_, i) => writeFastq(join(core.root, `turn-lost-${i}.fastq`), 40));
    await enqueueData(h.queue, paths);
    await h.queue.waitForIdle();
    expect(log.some((m) => m.includes('a commit failed'))).toBe(true);
    const jobs = h.queue.list().jobs;
    expect(jobs.map((j) => j.state)).toEqual(paths.map(() => 'completed'));
    const count = core.service.ctx.db.prepare('SELECT count(*) AS n FROM data_files WHERE checksum = ?');
    for (const p of paths) expect(count.get(sha256Of(p))).toEqual({ n: 1 });
    for (const j of jobs) expect(await dataChecksum(h, j.data_id!)).toBe(sha256Of(j.path));
    await h.close();
  });

  it('pauses, resumes and cancels jobs', async () => {
    const h = await openQueue(core.service, { preHashLimit: 0 });
    await h.queue.stop();
    const [a, b] = (
      await enqueueData(h.queue, [
        writeFastq(join(core.root, 'p1.fastq'), 200),
        writeFastq(join(core.root, 'p2.fastq'), 200),
      ])
    ).jobs;
    h.queue.pause(a!.id);
    h.queue.cancel(b!.id);
    h.queue.start();
    await h.queue.waitForIdle();
    expect(h.queue.list().jobs.map((j) => j.state)).toEqual(['paused', 'cancelled']);
    h.queue.resume(a!.id);
    h.queue.retry(b!.id);
    await h.queue.waitForIdle();
    expect(h.queue.list().jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
    await h.close();
  });

  it('cancelling an upload under way abandons what the service holds of it (issue 24 item 5)', async () => {
    // The queue holds after two chunks, so that the service surely holds part of the file.
    const window = new GatedWindow(2);
    const h = await openQueue(core.service, { preHashLimit: 0, sendWindow: window });
    const path = writeFastq(join(core.root, 'abandoned.fastq'), 30_000);
    const [job] = (await enqueueData(h.queue, [path])).jobs;
    await window.firstAcked;
    const started = h.queue.store.job(job!.id)!;
    const fileId = started.file_id!;
    const status = () => h.client.send(getUploadByFileId, { params: { file_id: fileId } });
    expect(await status()).toMatchObject({ status: 200, body: { complete: false } });
    h.queue.cancel(job!.id);
    expect(h.queue.list().jobs[0]!.state).toBe('cancelled');
    // The unfinished upload (and its chunks, counted to the user's quota) is gone from the service.
    await vi.waitFor(async () => expect((await status()).status).toBe(404), { timeout: 15_000, interval: 50 });
    await h.close();
  });
});

describe('groups and scheduling', () => {
  it('uploads a lane file and creates the lane once with its annotation sheet', async () => {
    const laneDir = join(core.root, 'lane');
    mkdirSync(laneDir);
    const gen = generateLane({ dir: laneDir, reads: 200, samples: 2, kind: 'header', readLength: 40, seed: 5 });
    const sheet = join(laneDir, 'annotation.csv');
    const rows = gen.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,Total RNA`);
    writeFileSync(sheet, ['Sample Name,Barcode,Organism,Category', ...rows].join('\n') + '\n');
    const h = await openQueue(core.service);
    await enqueueLane(h.queue, { name: 'Lane 9', file: gen.read1, annotation: sheet });
    await h.queue.waitForIdle();
    const list = h.queue.list();
    expect(list.jobs[0]).toMatchObject({ role: 'multiplexed', state: 'completed' });
    expect(list.groups[0]).toMatchObject({ kind: 'lane', name: 'Lane 9', state: 'created' });
    const lane = await h.client.call(getLanesById, { params: { id: list.groups[0]!.created_id! } });
    expect(lane).toMatchObject({ name: 'Lane 9', read1: list.jobs[0]!.data_id });
    await h.close();
  });

  it('refuses a sample whose read 2 is a copy of its read 1, naming both files, and creates the others', async () => {
    // A copy made by hand, or a sheet pointing twice at one file: the service keeps one record
    // of the bytes, and its own refusal ("read2: must differ from read1") names no file.
    const dir = join(core.root, 'twins');
    mkdirSync(dir);
    const r1 = writeFastq(join(dir, 'Twin_S1_L001_R1_001.fastq'), 200);
    const r2 = join(dir, 'Twin_S1_L001_R2_001.fastq');
    copyFileSync(r1, r2);
    const ok1 = writeFastq(join(dir, 'Fine_S2_L001_R1_001.fastq'), 200);
    const ok2 = writeFastq(join(dir, 'Fine_S2_L001_R2_001.fastq'), 200);
    const h = await openQueue(core.service);
    const metadata = { organism: 'Homo sapiens', category: 'DNA' };
    await enqueueSamples(h.queue, [
      { name: 'Twin', read1: r1, read2: r2, metadata },
      { name: 'Fine', read1: ok1, read2: ok2, metadata },
    ]);
    await h.queue.waitForIdle();
    const { groups, jobs } = h.queue.list();
    expect(jobs.every((j) => j.state === 'completed')).toBe(true);
    const twin = groups.find((g) => g.name === 'Twin')!;
    expect(twin.state).toBe('failed');
    expect(twin.error).toBe(
      `read 1 (Twin_S1_L001_R1_001.fastq) and read 2 (Twin_S1_L001_R2_001.fastq) have the same contents ` +
        `(sha256 ${sha256Of(r1).slice(0, 12)}…): one is a copy of the other. Put the right file in place and add the files again.`,
    );
    expect(groups.find((g) => g.name === 'Fine')).toMatchObject({ state: 'created' });
    const names = (await h.client.call(getSamples, { query: { per_page: 100 } })).items.map((x) => x.name);
    expect(names).toContain('Fine');
    expect(names).not.toContain('Twin');
    await h.close();
  });

  it('runs high priority first under a concurrency of one, and paces to a bandwidth limit', async () => {
    const h = await openQueue(core.service, { preHashLimit: 0 });
    await h.queue.stop();
    h.queue.setSettings({ concurrency: 1, limit_mbps: 2, schedule: [] }); // 250 kB/s
    const low = writeFastq(join(core.root, 'prio_low.fastq'), 300);
    const high = writeFastq(join(core.root, 'prio_high.fastq'), 3000); // about 250 KB
    await enqueueData(h.queue, [low], 'low');
    await enqueueData(h.queue, [high], 'high');
    const order: string[] = [];
    const t0 = Date.now();
    h.queue.start();
    const poll = setInterval(() => {
      for (const j of h.queue.list().jobs)
        if (j.state === 'completed' && !order.includes(j.filename)) order.push(j.filename);
    }, 5);
    await h.queue.waitForIdle();
    clearInterval(poll);
    for (const j of h.queue.list().jobs) if (!order.includes(j.filename)) order.push(j.filename);
    expect(order).toEqual(['prio_high.fastq', 'prio_low.fastq']);
    const bytes = h.queue.list().jobs.reduce((s, j) => s + j.bytes_total, 0);
    // A quarter second of burst, then 250 kB/s.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(((bytes - 62_500) / 250_000) * 1000 * 0.95);
    await h.close();
  });
});
