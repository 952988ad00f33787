/**
 * `laneway upload` with an API key in LANEWAY_TOKEN: no username, no password, nothing stored;
 * the upload is the key owner's; a revoked key exits 3 (sign-in refused) before any work. And,
 * as a lab's script runs it once per file into one state folder, the progress it reports is of
 * this run's file, not of every file the folder has sent.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliToEnd } from '../../helpers/cli';
import { sha256Of, writeFastq } from './queue-harness';
import { coreSuite } from './core-suite';

const core = coreSuite({ prefix: 'laneway-cli-key-' });

async function json(path: string, token: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await core.service.api(path, {
    method: body === undefined ? (path.includes('/api-keys/') ? 'DELETE' : 'GET') : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function apiKey(): Promise<{ key: string; id: number; token: string }> {
  const login = await core.service.api('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ada', password: 'correct horse' }),
  });
  const token = ((await login.json()) as { token: string }).token;
  const made = await json('/api/api-keys', token, { name: 'cli' });
  return { key: made.key as string, id: made.id as number, token };
}

describe('laneway upload with LANEWAY_TOKEN', () => {
  it("reports the progress of this run's files, whatever the state folder sent before", async () => {
    const { key } = await apiKey();
    const env = { LANEWAY_URL: core.service.url, LANEWAY_TOKEN: key, LANEWAY_HOME: core.root };
    const state = join(core.root, 'state-per-file');
    const earlier = writeFastq(join(core.root, 'per_file_earlier.fastq'), 4000);
    expect((await runCliToEnd(['upload', earlier, '--state', state, '--json'], env)).code).toBe(0);
    const file = writeFastq(join(core.root, 'per_file_now.fastq'), 300);
    const out = await runCliToEnd(['upload', file, '--state', state, '--json'], env);
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; bytes_total: number; bytes_sent: number });
    const progress = lines.filter((l) => l.event === 'progress');
    // The queue reports once more when its last job ends: at least that line.
    expect(progress.length).toBeGreaterThan(0);
    const size = statSync(file).size;
    expect(new Set(progress.map((p) => p.bytes_total))).toEqual(new Set([size]));
    expect(progress.at(-1)!.bytes_sent).toBe(size);
  }, 60_000);

  it('uploads as the key owner, and stops with exit 3 once the key is revoked', async () => {
    const { key, id, token } = await apiKey();
    const file = writeFastq(join(core.root, 'key_a.fastq'), 200);
    const state = join(core.root, 'state');
    // No username or password anywhere in the environment.
    const env = {
      LANEWAY_URL: core.service.url,
      LANEWAY_TOKEN: key,
      LANEWAY_HOME: core.root,
      LANEWAY_USERNAME: '',
      LANEWAY_PASSWORD: '',
    };
    const out = await runCliToEnd(['upload', file, '--state', state, '--json'], env);
    expect(out.code, out.stderr).toBe(0);
    const done = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as { jobs: Array<{ data_id: number }> };
    const data = await json(`/api/data/${done.jobs[0]!.data_id}`, token);
    expect(data.checksum).toBe(sha256Of(file));
    // Nothing about the key was written to the state folder.
    const stored = existsSync(state) ? readdirSync(state) : [];
    expect(stored).not.toContain('tokens.json');

    await json(`/api/api-keys/${id}`, token);
    const other = writeFastq(join(core.root, 'key_b.fastq'), 100);
    const refused = await runCliToEnd(['upload', other, '--state', state, '--json'], env);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain('API key refused (revoked)');
  }, 60_000);
});
