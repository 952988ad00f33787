/**
 * Laneway's desktop core as a Flow client (issue 23 item 4): a profile whose wire is Flow,
 * pointed at Laneway's own `/flow/api` mount on a real service (which the real flowbio client
 * verifies, flowbio-conformance.test.ts). Sign-in with Flow's `flow_refresh_token` cookie and a
 * token refresh; a watched run's paired reads through the upload queue in Flow's offset
 * protocol, the queue stopped mid-upload and reopened (a crash: it asks the server what it
 * holds and goes on from there), the sample made by `/upload/sample`, the pipeline launched
 * with Flow's run body, the execution polled with back-off to its end, the reads and an
 * output downloaded through `/downloads/{id}/{filename}`, byte-identical.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followExecution } from '../../../src/main/core/launches/execution-follow';
import { FlowServiceClient } from '../../../src/main/core/service-client/flow/flow-service-client';
import { FlowState } from '../../../src/main/core/service-client/flow/flow-state';
import { openPlainFileStore } from '../../../src/main/core/session/file-token-store';
import { Session } from '../../../src/main/core/session/session';
import type { JobStore } from '../../../src/main/core/uploads/job-store';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import {
  getDataByIdDownload,
  getExecutionsById,
  getGroups,
  getSamplesById,
} from '../../../src/shared/service-api/endpoints';
import { tempDir } from '../../helpers/temp';
import { coreSuite } from './core-suite';
import { openFlowCore, signInOverFlow } from './flow-core-parts';
import { writeFastq } from './queue-harness';

const CHUNK = 64 * 1024;
const suite = coreSuite();
let base: string;
const state = tempDir('laneway-flow-core-');
const folder = tempDir('laneway-flow-watch-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(() => {
  base = `${suite.service.url}/flow/api`;
});
afterAll(() => {
  state.remove();
  folder.remove();
});

async function until(check: () => boolean, timeoutMs = 90_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await sleep(50);
  }
}

/** The core's parts over the state folder: a Flow profile's session, the queue, the watchers. */
function openCore(db: ReturnType<typeof openQueueDb>, onProgress?: (jobs: JobStore) => void) {
  return openFlowCore(state.path, db, {
    chunkSize: CHUNK,
    onProgress,
    watcherTimings: { reconcileMs: 300, debounceMs: 50, followPoll: { minMs: 100, maxMs: 400 } },
  });
}

describe('the desktop core with a Flow profile, against /flow/api', () => {
  it('signs in with the Flow cookie and refreshes the access token from it', async () => {
    const anon = new FlowServiceClient({ baseUrl: base, state: new FlowState(null) });
    const session = new Session({
      keychainService: 'Flow test',
      store: openPlainFileStore(join(state.path, 'session-tokens.json')),
      client: () => anon,
    });
    const me = await session.login('ada', 'correct horse');
    expect(me).toMatchObject({ username: 'ada', is_admin: true });
    const first = await session.token();
    const refreshed = await session.refresh();
    expect(refreshed).toEqual(expect.any(String));
    expect(refreshed).not.toBe(first);
    // A wrong password is Flow's 400, the core's INVALID_CREDENTIALS.
    await expect(session.login('ada', 'not the password')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await session.logout();
    await expect(session.refresh()).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
    await anon.close();
  });

  it('uploads a watched run, survives a crash mid-upload, launches a pipeline and follows it to the end', async () => {
    const db = openQueueDb(state.path);
    let stopping: Promise<void> | null = null;
    // The crash: the queue is stopped once a file has two chunks on the server, mid-upload.
    const core = openCore(db, (jobs) => {
      if (stopping) return;
      if (jobs.jobs().some((j) => j.state === 'uploading' && jobs.journal(j.id).size >= 2))
        stopping = core.queue.stop();
    });
    const profile = await signInOverFlow(core.sessions, suite.service.url);
    expect(profile).toMatchObject({ wire: 'flow', url: base });
    expect(core.sessions.status()).toMatchObject({ signed_in: true, user: { username: 'ada' } });
    core.queue.setSettings({ concurrency: 1, limit_mbps: 2, schedule: [] });
    core.queue.start();
    await core.watchers.start();
    await core.watchers.add({
      path: folder.path,
      kind: 'generic',
      auto_upload: true,
      settle_seconds: 1,
      sample_metadata: { organism: 'Homo sapiens', category: 'Genomic DNA' },
      launch: { pipeline: 'FASTQ Quality Control', parameters: {} },
    });
    const dir = join(folder.path, 'run-flow');
    mkdirSync(dir);
    const r1 = writeFastq(join(dir, 'Colon_S1_L001_R1_001.fastq'), 3000);
    const r2 = writeFastq(join(dir, 'Colon_S1_L001_R2_001.fastq'), 3000);
    expect(readFileSync(r1).length).toBeGreaterThan(4 * CHUNK);

    await until(() => stopping !== null);
    await stopping;
    await core.watchers.stop();
    await core.sessions.close();
    const halfway = core.jobs.jobs().find((j) => j.state !== 'completed' && core.jobs.journal(j.id).size >= 2)!;
    expect(halfway).toBeDefined();
    const flowFile = join(state.path, 'flow', `${profile.id}.json`);
    const before = new FlowState(flowFile).upload(halfway.file_id)!;
    expect(before.held).toBeGreaterThanOrEqual(2 * CHUNK);

    // Reopened over the same state folder: the profile, its stored sign-in and the queue's journal.
    const again = openCore(db);
    await again.sessions.init();
    again.queue.setSettings({ concurrency: 2, limit_mbps: null, schedule: [] });
    again.queue.start();
    await again.watchers.start();
    await until(() => ['launched', 'failed'].includes(again.watchers.runs()[0]?.state ?? ''));
    const run = again.watchers.runs()[0]!;
    expect(run.state, run.error ?? '').toBe('launched');

    // The resumed file went on under the same Flow upload (asked the server, not started again).
    const after = new FlowState(flowFile).upload(halfway.file_id)!;
    expect(after.data).toBe(before.data);
    expect(again.jobs.job(halfway.id)).toMatchObject({ state: 'completed', restarts: 0 });

    const client = again.sessions.client()!;
    const group = again.queue.list().groups[0]!;
    expect(group).toMatchObject({ kind: 'sample', state: 'created' });
    const sample = await client.call(getSamplesById, { params: { id: group.created_id! } });
    expect(sample.metadata).toMatchObject({ organism: 'Homo sapiens', category: 'Genomic DNA' });

    // Polled with back-off to the end (Flow has no subscriptions).
    const intervals: number[] = [];
    const seen: string[] = [];
    const ended = await followExecution(client, run.execution_id!, {
      minMs: 100,
      maxMs: 800,
      wait: async (ms) => {
        intervals.push(ms);
        await sleep(20);
      },
      onChange: (e) => seen.push(e.status),
    });
    expect(ended.status).toBe('completed');
    expect(seen.at(-1)).toBe('completed');
    if (intervals.length > 2) expect(Math.max(...intervals)).toBeGreaterThan(100);
    // The watchers follow the launch too: the run's timeline says how it ended.
    const note = () => again.watchers.runs()[0]!.timeline.at(-1)!.note ?? '';
    await until(() => note().endsWith('completed'));
    expect(note()).toBe(`FASTQ Quality Control: execution ${run.execution_id} completed`);

    // Downloads through /downloads/{id}/{filename}: the reads as uploaded, an output whole.
    for (const job of again.jobs.jobs()) {
      const res = await client.send(getDataByIdDownload, { params: { id: job.data_id! } });
      expect(res.status).toBe(200);
      const file = job.role === 'read1' ? r1 : r2;
      expect(Buffer.compare(res.body as Buffer, readFileSync(file))).toBe(0);
    }
    const detail = await client.call(getExecutionsById, { params: { id: ended.id } });
    expect(detail.outputs!.length).toBeGreaterThan(0);
    const out = await client.send(getDataByIdDownload, { params: { id: detail.outputs![0]!.id } });
    expect((out.body as Buffer).length).toBe(detail.outputs![0]!.size);

    // What Flow does not offer says so.
    await expect(client.call(getGroups)).rejects.toMatchObject({ status: 404 });

    await again.watchers.stop();
    await again.queue.stop();
    await again.sessions.close();
    db.close();
  }, 180_000);
});
