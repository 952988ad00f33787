/**
 * Issue 20 item 7: `laneway backup` while the service runs and uploads arrive, then `laneway
 * restore` into a new folder: the restored service serves every sample the backup saw, each
 * file's bytes matching its checksum, and the app's upload queue and profiles come back too.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ProfileStore } from '../../../src/main/core/session/profiles';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { runCliToEnd } from '../../helpers/cli';
import { startServeProcess, type ServeProcess } from '../../helpers/serve-process';
import { tempDir } from '../../helpers/temp';
import { fastqBytes, uploadWhole } from '../data/upload-helpers';

vi.setConfig({ testTimeout: 300_000 });

interface Sample {
  id: number;
  name: string;
  data: Array<{ id: number; checksum: string; filename: string }>;
}

const ADMIN = { username: 'admin', password: 'backup password', email: 'admin@lab.example', name: 'Admin' };

async function json<T>(url: string, method: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

const login = async (url: string) =>
  (
    await json<{ token: string }>(`${url}/api/login`, 'POST', null, {
      username: ADMIN.username,
      password: ADMIN.password,
    })
  ).token;

/** Uploads reads in several chunks and makes a sample of them. */
async function addSample(url: string, token: string, name: string, seed: number): Promise<Sample> {
  const bytes = fastqBytes(400, 80, seed);
  const up = await uploadWhole(url, token, `${name}.fastq`, bytes, { chunkSize: 8192 });
  if (up.status !== 200) throw new Error(`upload ${name}: ${up.status} ${JSON.stringify(up.body)}`);
  const read1 = (up.body as { data_id?: number; id?: number }).data_id ?? (up.body as { id: number }).id;
  return json<Sample>(`${url}/api/samples/`, 'POST', token, {
    name,
    read1,
    metadata: { organism: 'Homo sapiens', category: 'Genomic DNA' },
  });
}

describe('laneway backup and restore', () => {
  const dir = tempDir();
  const home = join(dir.path, 'home');
  const dataDir = join(home, 'service');
  const archive = join(dir.path, 'laneway-backup.tar.gz');
  let serve: ServeProcess | null = null;
  afterAll(async () => {
    await serve?.stop();
    dir.remove();
  });

  it('backs up during uploads; the restored copy serves every sample and file', async () => {
    serve = await startServeProcess({ dataDir, keepData: true });
    await json(`${serve.url}/api/setup`, 'POST', null, ADMIN);
    const token = await login(serve.url);
    // The app's own state beside the data folder, written by the app's own modules.
    new ProfileStore(home).add({ name: 'Lab server', kind: 'remote', url: 'http://lab.example:8080' });
    openQueueDb(home).close();

    const before: Sample[] = [];
    for (let i = 0; i < 3; i++) before.push(await addSample(serve.url, token, `before_${i}`, i + 1));

    // Uploads keep arriving while the backup runs.
    let stop = false;
    let firstDuring: () => void = () => {};
    const oneDone = new Promise<void>((r) => (firstDuring = r));
    const during: Sample[] = [];
    const url = serve.url;
    const uploading = (async () => {
      for (let i = 0; !stop; i++) {
        during.push(await addSample(url, token, `during_${i}`, 100 + i));
        firstDuring();
      }
    })();
    await oneDone;
    const seenByBackup = [...before, ...during];
    const backup = await runCliToEnd(['backup', '--data', dataDir, '--to', archive]);
    stop = true;
    await uploading;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('upload queue and profiles');
    await serve.stop();
    serve = null;

    // Restored into a new app folder, as on a new computer.
    const newHome = join(dir.path, 'restored');
    const restored = await runCliToEnd(['restore', '--from', archive, '--data', join(newHome, 'service')]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(existsSync(join(newHome, 'uploads.sqlite'))).toBe(true);
    expect(new ProfileStore(newHome).list().profiles.map((p) => p.name)).toContain('Lab server');

    serve = await startServeProcess({ dataDir: join(newHome, 'service'), keepData: true });
    const t2 = await login(serve.url);
    const page = await json<{ items: Sample[]; count: number }>(`${serve.url}/api/samples/?per_page=100`, 'GET', t2);
    const names = page.items.map((s) => s.name);
    for (const s of seenByBackup) expect(names).toContain(s.name);
    // Every sample the copy has (those of the backup and any upload it caught whole) serves its bytes.
    for (const s of page.items)
      for (const d of s.data) {
        const res = await fetch(`${serve.url}/api/data/${d.id}/download`, {
          headers: { authorization: `Bearer ${t2}` },
        });
        expect(res.status, `${s.name}/${d.filename}`).toBe(200);
        const sha = createHash('sha256')
          .update(Buffer.from(await res.arrayBuffer()))
          .digest('hex');
        expect(sha, `${s.name}/${d.filename}`).toBe(d.checksum);
      }
  });

  it('refuses to restore over a folder in use or not empty', async () => {
    const target = join(dir.path, 'restored', 'service');
    // The service of the previous test runs on it.
    const running = await runCliToEnd(['restore', '--from', archive, '--data', target]);
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(/is running on/);
    await serve!.stop();
    serve = null;
    const notEmpty = await runCliToEnd(['restore', '--from', archive, '--data', target]);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toMatch(/not empty/);
    const notABackup = join(dir.path, 'not-a-backup.tar.gz');
    writeFileSync(notABackup, 'hello');
    const bad = await runCliToEnd(['restore', '--from', notABackup, '--data', join(dir.path, 'other')]);
    expect(bad.code).toBe(1);
    const forced = await runCliToEnd(['restore', '--from', archive, '--data', target, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/kept as .*before-restore/);
    expect(readFileSync(join(target, 'laneway.sqlite')).subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});
