/**
 * Issue 11 part 7: a full disk is an answer, not corruption. The data folder sits on an 8 MB
 * tmpfs made by the test (root only: elsewhere the test says why it skips). A filler file takes
 * nearly all the space; then an upload answers 507 INSUFFICIENT_STORAGE with the error body and
 * leaves no data record and no acknowledged chunk it does not hold; once the filler is removed
 * the same upload resumes and completes with every byte. A pipeline run on the full disk fails
 * with the reason, and the service keeps answering throughout.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateLane } from '../../helpers/fastq-generator';
import { fastqBytes, postChunk, sha256, chunksOf, uploadWhole } from '../data/upload-helpers';
import { SHIPPED_MANIFESTS } from '../pipelines/pipeline-kit';
import { startTestService, type TestService } from '../../helpers/test-service';
import { setupAdmin, call, type Session } from '../identity/helpers';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const isRoot = process.getuid?.() === 0;

describe.skipIf(!isRoot)('disk full: 507 INSUFFICIENT_STORAGE, nothing half-stored (issue 11 part 7)', () => {
  let mountPoint: string;
  let service: TestService;
  let admin: Session;
  const filler = () => join(mountPoint, 'filler');
  const free = () => {
    const s = statfsSync(mountPoint);
    return s.bavail * s.bsize;
  };
  /** Fills the disk until only `leave` bytes are free. */
  const fill = (leave: number) => writeFileSync(filler(), Buffer.alloc(Math.max(0, free() - leave)));

  beforeAll(async () => {
    mountPoint = mkdtempSync(join(tmpdir(), 'laneway-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint]);
    mkdirSync(join(mountPoint, 'data'));
    process.env.LANEWAY_PIPELINES_DIR = SHIPPED_MANIFESTS;
    service = await startTestService({ dataDir: join(mountPoint, 'data') });
    admin = await setupAdmin(service, 'admin');
  });
  afterAll(async () => {
    rmSync(filler(), { force: true });
    await service?.stop();
    delete process.env.LANEWAY_PIPELINES_DIR;
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  /**
   * Asks for the run until it has ended. With the disk this full even its end may not be
   * writable: the service says so in its log, and records it once space is freed. (Ten seconds
   * on the clock stood for "it would have ended by now", and a loaded machine took longer.)
   */
  const settle = async (
    get: () => Promise<{ body: Record<string, unknown> }>,
    ended: (r: Record<string, unknown>) => boolean,
    label: string,
  ): Promise<Record<string, unknown>> => {
    for (;;) {
      const r = (await get()).body;
      if (ended(r)) return r;
      if (service.logs.some((l) => l.includes(`${label}: could not record the end`))) rmSync(filler(), { force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  const dataCount = async () =>
    (await call(service, 'GET', '/api/data/?per_page=1', { token: admin.token })).body.count as number;

  it('answers 507 with the error body, keeps nothing half-stored, and succeeds once space is freed', async () => {
    const bytes = fastqBytes(6000, 100, 7); // ~1.3 MB
    const parts = chunksOf(bytes, 256 * 1024);
    const base = {
      filename: 'full.fastq',
      total_chunks: parts.length,
      file_id: 'disk-full-1',
      total_size: bytes.length,
    };
    const before = await dataCount();
    fill(300 * 1024);
    const answers = [];
    for (let i = 0; i < parts.length; i++)
      answers.push(await postChunk(service.url, admin.token, { ...base, chunk: i }, parts[i]!));
    const refused = answers.filter((a) => a.status === 507);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(a.body).toMatchObject({ code: 'INSUFFICIENT_STORAGE', status: 507 });
      expect(a.body.error).toMatch(/disk is full/);
    }
    for (const a of answers) expect([200, 507]).toContain(a.status);
    expect((await service.api('/api/health')).status).toBe(200);
    expect(await dataCount()).toBe(before);

    // Free the space; the client asks what arrived and sends the rest.
    rmSync(filler());
    const status = (await call(service, 'GET', '/api/upload/disk-full-1', { token: admin.token })).body;
    expect(status.complete).toBe(false);
    const have = new Set(status.received_chunks as number[]);
    let last: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
    for (let i = 0; i < parts.length; i++) {
      if (have.has(i)) continue;
      last = await postChunk(service.url, admin.token, { ...base, chunk: i, checksum: sha256(bytes) }, parts[i]!);
      expect(last.status).toBe(200);
    }
    expect(last.body).toMatchObject({ checksum: sha256(bytes), size: bytes.length });
    const download = await service.api(`/api/data/${last.body.id as number}/download`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await dataCount()).toBe(before + 1);
  });

  it('the admin signs in on a completely full disk, and the session works (issue 24 item 5)', async () => {
    // Before: the refresh token's insert came first, so every login on a full disk answered 507.
    // A few failed logins first: they must not need the disk either.
    fill(0);
    for (let i = 0; i < 3; i++) {
      const wrong = await call(service, 'POST', '/api/login', { body: { username: 'admin', password: `no-${i}` } });
      expect(wrong.status).toBe(401);
    }
    const res = await call(service, 'POST', '/api/login', { body: { username: 'admin', password: 'correct horse' } });
    expect(res.status).toBe(200);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await call(service, 'GET', '/api/me', { token: res.body.token as string })).status).toBe(200);
    // The refresh cookie is honoured while its record waits for space, and after it is written.
    expect((await call(service, 'GET', '/api/token', { cookie })).status).toBe(200);
    rmSync(filler());
    const second = await call(service, 'POST', '/api/login', {
      body: { username: 'admin', password: 'correct horse' },
    });
    expect(second.status).toBe(200);
    expect((await call(service, 'GET', '/api/token', { cookie })).status).toBe(200);
  });

  it('a pipeline run on a full disk fails with the reason, and the service keeps answering', async () => {
    const reads = fastqBytes(4000, 100, 8);
    const up = await postChunk(
      service.url,
      admin.token,
      { filename: 'trim_R1.fastq', chunk: 0, total_chunks: 1, file_id: 'trim-in' },
      reads,
    );
    expect(up.status).toBe(200);
    const sample = await call(service, 'POST', '/api/samples/', {
      token: admin.token,
      body: { name: 's1', read1: up.body.id, metadata: { Organism: 'Homo sapiens', Category: 'DNA' } },
    });
    expect(sample.status).toBe(201);
    const pipelines = (await call(service, 'GET', '/api/pipelines', { token: admin.token })).body as unknown as Array<{
      name: string;
      versions: Array<{ id: number; is_latest: boolean }>;
    }>;
    const trim = pipelines.find((p) => p.name === 'Adapter Trimming')!.versions.find((v) => v.is_latest)!.id;
    fill(64 * 1024);
    const run = await call(service, 'POST', `/api/pipelines/versions/${trim}/run`, {
      token: admin.token,
      body: { samples: [sample.body.id] },
    });
    // Either refused at once (the record could not be written) or queued and then failed.
    if (run.status === 507) {
      expect(run.body).toMatchObject({ code: 'INSUFFICIENT_STORAGE', status: 507 });
    } else {
      expect(run.status).toBe(201);
      const exec = await settle(
        () => call(service, 'GET', `/api/executions/${run.body.id as number}`, { token: admin.token }),
        (e) => e.status === 'failed' || e.status === 'completed',
        `execution ${run.body.id as number}`,
      );
      expect(exec.status).toBe('failed');
      expect(String(exec.error)).toMatch(/no space left|disk is full|ENOSPC/i);
    }
    expect((await service.api('/api/health')).status).toBe(200);
    rmSync(filler(), { force: true });
  });
  it('demultiplexing a lane on a full disk fails with the reason; its input and the service survive', async () => {
    const genDir = mkdtempSync(join(tmpdir(), 'laneway-full-gen-'));
    const gen = generateLane({
      dir: genDir,
      reads: 8000,
      samples: 3,
      kind: 'header',
      readLength: 60,
      seed: 3,
    });
    const input = readFileSync(gen.read1);
    rmSync(genDir, { recursive: true, force: true });
    const up = await uploadWhole(service.url, admin.token, 'lane.fastq', input);
    expect(up.status).toBe(200);
    const sheet =
      'Sample Name,Barcode,Organism,Category\n' +
      gen.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,Total RNA`).join('\n') +
      '\n';
    const samplesBefore = (await call(service, 'GET', '/api/samples/?per_page=1', { token: admin.token })).body.count;
    fill(64 * 1024);
    const form = new FormData();
    form.append('name', 'Full lane');
    form.append('file_data_id', String(up.body.id));
    form.append('annotation', new Blob([sheet]), 'sheet.csv');
    const res = await service.api('/api/upload/multiplexed', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
      body: form,
    });
    const body = (await res.json()) as Record<string, unknown>;
    if (res.status === 507) {
      expect(body).toMatchObject({ code: 'INSUFFICIENT_STORAGE', status: 507 });
    } else {
      expect(res.status).toBe(202);
      const lane = await settle(
        () => call(service, 'GET', `/api/lanes/${body.id as number}`, { token: admin.token }),
        (l) => l.status !== 'demultiplexing',
        `lane ${body.id as number}`,
      );
      expect(lane.status).toBe('failed');
      expect(String(lane.error)).toMatch(/no space left|disk is full|ENOSPC/i);
    }
    rmSync(filler(), { force: true });
    expect((await service.api('/api/health')).status).toBe(200);
    // No half lane: no samples were created, and the input is intact.
    expect((await call(service, 'GET', '/api/samples/?per_page=1', { token: admin.token })).body.count).toBe(
      samplesBefore,
    );
    const back = await service.api(`/api/data/${up.body.id as number}/download`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(Buffer.from(await back.arrayBuffer()).equals(input)).toBe(true);
  });
});
