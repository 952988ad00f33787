/**
 * .gz files cut short or damaged fail in the upload queue before their last chunk is sent, and
 * the service never records them (gzip-check.ts); whole ones, joined members and gzip's
 * zero padding upload as before. The files are made by Debian's gzip and pigz, as labs make
 * them, and cut as an interrupted copy cuts them (`head -c`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enqueueData, enqueueSamples } from '../../../src/main/core/ingest/confirm';
import { getData, getDataById } from '../../../src/shared/service-api/endpoints';
import { coreSuite } from './core-suite';
import { openQueue, sha256Of, writeFastq } from './queue-harness';

const core = coreSuite({ prefix: 'laneway-gzip-' });

/** A FASTQ file of `records` reads compressed by `tool` (gzip or pigz) into `name`. */
function compressed(name: string, records: number, tool: 'gzip' | 'pigz' = 'gzip'): string {
  const plain = writeFastq(join(core.root, name.replace(/\.gz$/, '')), records);
  execFileSync(tool, ['-f', plain]);
  return join(core.root, name);
}

/** The first `bytes` bytes of `path`, as an interrupted copy leaves them. */
function cutCopy(path: string, bytes: number, name: string): string {
  const out = join(core.root, name);
  writeFileSync(out, execFileSync('head', ['-c', String(bytes), path], { maxBuffer: 1 << 28 }));
  return out;
}

async function uploadedNames(h: Awaited<ReturnType<typeof openQueue>>): Promise<string[]> {
  const page = await h.client.call(getData, { query: { per_page: 100 } });
  return page.items.map((d) => d.filename);
}

describe('the upload queue reads .gz files through gzip', () => {
  it('fails a cut-short file of many chunks before its last chunk, naming the file, and the service records nothing', async () => {
    const h = await openQueue(core.service);
    const whole = compressed('run1_R1.fastq.gz', 20000, 'pigz');
    const size = readFileSync(whole).length;
    expect(size).toBeGreaterThan(4 * 64 * 1024); // several of the harness's 64 KiB chunks
    const cut = cutCopy(whole, Math.floor(size * 0.8), 'cut_R1.fastq.gz');
    // gzip itself calls the copy cut short.
    expect(() => execFileSync('gzip', ['-t', cut], { stdio: 'pipe' })).toThrow(/unexpected end of file/);
    await enqueueData(h.queue, [cut]);
    await h.queue.waitForIdle();
    const job = h.queue.list().jobs[0]!;
    expect(job.state).toBe('failed');
    expect(job.attempts).toBe(0);
    expect(job.error).toContain(cut);
    expect(job.error).toMatch(/is cut short: its gzip data stops in the middle, at byte [\d,]+, as when a copy/);
    expect(job.data_id).toBeNull();
    expect(await uploadedNames(h)).not.toContain('cut_R1.fastq.gz');
    // The whole file from the same folder uploads, byte for byte.
    await enqueueData(h.queue, [whole]);
    await h.queue.waitForIdle();
    const ok = h.queue.list().jobs.find((j) => j.path === whole)!;
    expect(ok.state).toBe('completed');
    expect((await h.client.call(getDataById, { params: { id: ok.data_id! } })).checksum).toBe(sha256Of(whole));
    await h.close();
  });

  it('fails a cut-short file of one chunk, and a damaged one (a byte changed mid-file), before sending the bytes that complete it', async () => {
    const h = await openQueue(core.service, { chunkSize: 8 * 1024 * 1024 });
    const whole = compressed('small_R1.fastq.gz', 3000);
    const bytes = readFileSync(whole);
    const cut = cutCopy(whole, bytes.length - 100, 'small_cut_R1.fastq.gz');
    const damaged = join(core.root, 'damaged_R1.fastq.gz');
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)]! ^= 0x55;
    writeFileSync(damaged, flipped);
    expect(() => execFileSync('gzip', ['-t', damaged], { stdio: 'pipe' })).toThrow();
    await enqueueData(h.queue, [cut, damaged]);
    await h.queue.waitForIdle();
    const jobs = h.queue.list().jobs;
    const byPath = (p: string) => jobs.find((j) => j.path === p)!;
    expect(byPath(cut)).toMatchObject({ state: 'failed', data_id: null });
    expect(byPath(cut).error).toMatch(/small_cut_R1\.fastq\.gz is cut short/);
    expect(byPath(damaged)).toMatchObject({ state: 'failed', data_id: null });
    expect(byPath(damaged).error).toMatch(/damaged_R1\.fastq\.gz is damaged: /);
    const names = await uploadedNames(h);
    expect(names).not.toContain('small_cut_R1.fastq.gz');
    expect(names).not.toContain('damaged_R1.fastq.gz');
    await h.close();
  });

  it('keeps the sample from being created when its read 2 was cut short, names that file, and creates it once a whole copy is retried', async () => {
    const h = await openQueue(core.service);
    const r1 = compressed('pair_R1.fastq.gz', 8000);
    const r2whole = compressed('pair_R2.fastq.gz', 8000);
    const r2 = cutCopy(r2whole, readFileSync(r2whole).length - 5000, 'pair_cut_R2.fastq.gz');
    await enqueueSamples(h.queue, [
      { name: 'Pair', read1: r1, read2: r2, metadata: { organism: 'Homo sapiens', category: 'DNA' } },
    ]);
    await h.queue.waitForIdle();
    const { jobs, groups } = h.queue.list();
    expect(jobs.find((j) => j.path === r2)).toMatchObject({ state: 'failed' });
    expect(jobs.find((j) => j.path === r2)!.error).toContain('pair_cut_R2.fastq.gz is cut short');
    expect(groups[0]!.state).not.toBe('created');
    // The technician copies the file again, whole, over the cut one and presses Retry.
    writeFileSync(r2, readFileSync(r2whole));
    h.queue.retry(jobs.find((j) => j.path === r2)!.id);
    await h.queue.waitForIdle();
    const after = h.queue.list();
    expect(after.jobs.find((j) => j.path === r2)).toMatchObject({ state: 'completed', error: null });
    expect(after.groups[0]!.state).toBe('created');
    await h.close();
  });

  it('uploads gzip members joined one after another and a file with gzip-style zero padding, as gzip -t accepts them', async () => {
    const h = await openQueue(core.service);
    // Nanopore batches of one barcode are joined into one upload, member after member.
    const batches = [0, 1, 2].map((i) => compressed(`batch_${i}.fastq.gz`, 2000 + i * 300, i === 1 ? 'pigz' : 'gzip'));
    const padded = compressed('padded.fastq.gz', 2000);
    writeFileSync(padded, Buffer.concat([readFileSync(padded), Buffer.alloc(4096)]));
    execFileSync('gzip', ['-t', padded]);
    await h.queue.enqueueBatch({
      files: [
        { sources: batches, filename: 'barcode01.fastq.gz', role: 'data' },
        { sources: [padded], filename: 'padded.fastq.gz', role: 'data' },
      ],
    });
    await h.queue.waitForIdle();
    const jobs = h.queue.list().jobs;
    expect(jobs.map((j) => [j.filename, j.state, j.error])).toEqual([
      ['barcode01.fastq.gz', 'completed', null],
      ['padded.fastq.gz', 'completed', null],
    ]);
    const joined = Buffer.concat(batches.map((b) => readFileSync(b)));
    const record = await h.client.call(getDataById, { params: { id: jobs[0]!.data_id! } });
    expect(record.size).toBe(joined.length);
    await h.close();
  });

  it('fails an empty .gz file as empty, naming it, not as cut short', async () => {
    const h = await openQueue(core.service);
    const empty = join(core.root, 'empty_R1.fastq.gz');
    writeFileSync(empty, '');
    await enqueueData(h.queue, [empty]);
    await h.queue.waitForIdle();
    const job = h.queue.list().jobs[0]!;
    expect(job).toMatchObject({ state: 'failed', data_id: null });
    expect(job.error).toBe(`${empty} is empty (0 bytes): there is nothing to upload`);
    await h.close();
  });

  it('names the joined file where a cut batch sits', async () => {
    const h = await openQueue(core.service);
    const good = compressed('nb_a.fastq.gz', 3000);
    const whole = compressed('nb_b.fastq.gz', 3000);
    const cut = cutCopy(whole, readFileSync(whole).length - 2000, 'nb_b_cut.fastq.gz');
    const after = compressed('nb_c.fastq.gz', 3000);
    await h.queue.enqueueBatch({
      files: [{ sources: [good, cut, after], filename: 'barcode02.fastq.gz', role: 'data' }],
    });
    await h.queue.waitForIdle();
    const job = h.queue.list().jobs[0]!;
    expect(job.state).toBe('failed');
    expect(job.error).toContain('barcode02.fastq.gz (joined from 3 files; the problem shows in');
    expect(job.error).toMatch(/nb_b_cut\.fastq\.gz|nb_c\.fastq\.gz/);
    await h.close();
  });
});
