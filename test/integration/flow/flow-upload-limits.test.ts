/**
 * Flow's offset uploads share the service's upload machinery, so they share its limits: an
 * abandoned upload expires with the others (upload maintenance, under a fake clock), and a full
 * disk answers 507 in Flow's body without acknowledging the chunk, after which the same chunk
 * sent again completes the file (tmpfs made by the test; root only, elsewhere it says why).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expireUploads } from '../../../src/service/uploads/upload-maintenance';

/** The default expiry of unfinished uploads (the admin setting upload_expiry_hours). */
const UPLOAD_EXPIRY_MS = 72 * 3_600_000;
import { writeReads } from '../../helpers/flow/flow-fixtures';
import { postChunk, flowToken } from '../../helpers/flow/flow-wire-client';
import { tempDir } from '../../helpers/temp';
import { startTestService } from '../../helpers/test-service';
import { setupAdmin } from '../identity/helpers';

const dir = tempDir('laneway-flow-limits-');
afterAll(() => dir.remove());

describe('Flow uploads and the upload machinery', () => {
  it('expires an abandoned offset upload with the others', async () => {
    let now = Date.parse('2026-03-01T10:00:00Z');
    const service = await startTestService({ clock: { now: () => now } });
    try {
      await setupAdmin(service);
      const base = `${service.url}/flow/api`;
      const bytes = readFileSync(writeReads(dir.path, 'abandoned.fastq', 40, 61));
      const first = await postChunk(base, '/upload', await flowToken(base), {
        filename: 'abandoned.fastq',
        offset: 0,
        isLast: false,
        data: '',
        bytes: bytes.subarray(0, 1000),
      });
      const id = first.body.data_id as string;
      now += UPLOAD_EXPIRY_MS + 60_000;
      expect(expireUploads(service.ctx)).toBe(1);
      const next = await postChunk(base, '/upload', await flowToken(base), {
        filename: 'abandoned.fastq',
        offset: 1000,
        isLast: true,
        data: id,
        bytes: bytes.subarray(1000, 2000),
      });
      expect(next.status).toBe(400);
      expect(next.body.error).toMatch(/start again from offset 0/);
    } finally {
      await service.stop();
    }
  });

  const isRoot = process.getuid?.() === 0;
  it.skipIf(!isRoot)('answers a full disk with 507 in Flow’s body, then takes the same chunk again', async () => {
    const mountPoint = mkdtempSync(join(tmpdir(), 'laneway-flow-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint]);
    mkdirSync(join(mountPoint, 'data'));
    const filler = join(mountPoint, 'filler');
    const service = await startTestService({ dataDir: join(mountPoint, 'data') });
    try {
      await setupAdmin(service);
      const base = `${service.url}/flow/api`;
      const token = await flowToken(base);
      const bytes = readFileSync(writeReads(dir.path, 'full.fastq', 8000, 62));
      const size = 512 * 1024;
      const chunk = (i: number, data: string) => ({
        filename: 'full.fastq',
        offset: i * size,
        isLast: (i + 1) * size >= bytes.length,
        data,
        bytes: bytes.subarray(i * size, (i + 1) * size),
      });
      const first = await postChunk(base, '/upload', token, chunk(0, ''));
      const id = first.body.data_id as string;
      const s = statfsSync(mountPoint);
      writeFileSync(filler, Buffer.alloc(Math.max(0, s.bavail * s.bsize - 64 * 1024)));
      const full = await postChunk(base, '/upload', token, chunk(1, id));
      expect(full.status).toBe(507);
      expect(typeof full.body.error).toBe('string');
      expect(full.body.code).toBeUndefined();
      rmSync(filler);
      let last = await postChunk(base, '/upload', token, chunk(1, id));
      expect(last.status).toBe(200);
      const n = Math.ceil(bytes.length / size);
      for (let i = 2; i < n; i++) last = await postChunk(base, '/upload', token, chunk(i, id));
      const back = await fetch(`${base}/downloads/${String(last.body.id)}/full.fastq`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(Buffer.from(await back.arrayBuffer()).equals(bytes)).toBe(true);
    } finally {
      rmSync(filler, { force: true });
      await service.stop();
      execFileSync('umount', [mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });
});
