import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type {
  AuthStatus,
  EnqueueResult,
  Proposal,
  ProfileList,
  UploadList,
} from '../../../src/shared/desktop-api/contract';
import { writeFastq } from './queue-harness';
import { callCore, coreForFile } from './test-core';

const { dir, held } = coreForFile('laneway-core-');

const call = <T>(channel: string, params: unknown = {}) => callCore<T>(held.core, channel, params);

describe('desktop core over its dispatcher', () => {
  it('sets up the first account, hands the renderer an access token, and reports the token store', async () => {
    expect(await call<AuthStatus>('auth:status')).toMatchObject({
      signed_in: false,
      token_store: 'file',
      profile_id: 'local',
    });
    const status = await call<AuthStatus>('auth:setup', {
      username: 'ada',
      password: 'correct horse',
      email: 'ada@lab.test',
      name: 'Ada',
    });
    expect(status).toMatchObject({ signed_in: true, user: { username: 'ada', is_admin: true } });
    const token = await call<{ token: string; api_url: string }>('auth:access-token');
    const me = await fetch(`${token.api_url}/me`, { headers: { authorization: `Bearer ${token.token}` } });
    expect(((await me.json()) as { username: string }).username).toBe('ada');
  });

  it('answers bad paths and bad payloads as data', async () => {
    const rel = await held.core.dispatcher.dispatch('uploads:enqueue-files', { paths: ['relative.fastq'] });
    expect(rel).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', message: expect.stringMatching(/absolute/) },
    });
    const bad = await held.core.dispatcher.dispatch('uploads:enqueue-files', { paths: 'x' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('proposes a drop, confirms it, uploads it and creates the sample', async () => {
    const drop = join(dir, 'drop');
    mkdirSync(drop);
    writeFastq(join(drop, 'Kidney_S2_L001_R1_001.fastq.gz'), 200);
    writeFastq(join(drop, 'Kidney_S2_L001_R2_001.fastq.gz'), 200);
    const proposal = await call<Proposal>('ingest:propose', { paths: [drop] });
    expect(proposal.samples.map((s) => s.name)).toEqual(['Kidney']);
    const samples = proposal.samples.map((s) => ({ ...s, metadata: { organism: 'Mus musculus', category: 'RNA' } }));
    const queued = await call<EnqueueResult>('ingest:confirm', { kind: 'samples', samples, lane: null, loose: [] });
    expect(queued.jobs).toHaveLength(2);
    await held.core.queue!.waitForIdle();
    const list = await call<UploadList>('uploads:list');
    expect(list.jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
    expect(list.groups[0]).toMatchObject({ kind: 'sample', name: 'Kidney', state: 'created' });
  }, 60_000);

  it('switches profiles without a restart and logs out', async () => {
    const url = held.core.supervisor.getStatus().url!;
    await call('profiles:add', { name: 'Same service, remote', kind: 'remote', url, activate: true });
    expect(await call<AuthStatus>('auth:status')).toMatchObject({ signed_in: false });
    await call('auth:login', { username: 'ada', password: 'correct horse' });
    const list = await call<ProfileList>('profiles:switch', { id: 'local' });
    expect(list.active_id).toBe('local');
    expect(await call<AuthStatus>('auth:status')).toMatchObject({ signed_in: true, profile_id: 'local' });
    expect(await call<AuthStatus>('auth:logout')).toMatchObject({ signed_in: false });
    const after = await held.core.dispatcher.dispatch('auth:access-token', {});
    expect(after).toMatchObject({ ok: false, error: { code: 'NOT_SIGNED_IN' } });
  }, 30_000);
});
