/**
 * `laneway upload` with an API key in LANEWAY_TOKEN: no username, no password, nothing stored;
 * the upload is the key owner's; a revoked key exits 3 (sign-in refused) before any work.
 */
import { existsSync, readdirSync } from 'node:fs';
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

describe('laneway upload with LANEWAY_TOKEN', () => {
  it('uploads as the key owner, and stops with exit 3 once the key is revoked', async () => {
    const login = await core.service.api('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', password: 'correct horse' }),
    });
    const token = ((await login.json()) as { token: string }).token;
    const made = await json('/api/api-keys', token, { name: 'cli' });
    const key = made.key as string;
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

    await json(`/api/api-keys/${made.id as number}`, token);
    const other = writeFastq(join(core.root, 'key_b.fastq'), 100);
    const refused = await runCliToEnd(['upload', other, '--state', state, '--json'], env);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain('API key refused (revoked)');
  }, 60_000);
});
