import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UploadJob } from '../../../src/shared/desktop-api/contract';
import { enqueueData } from '../../../src/main/core/ingest/confirm';
import { openQueue, sha256Of, writeFastq } from './queue-harness';
import { coreSuite } from './core-suite';

const core = coreSuite({ prefix: 'laneway-refresh-' });

describe('upload waiting on an access-token refresh', () => {
  it('says token-refresh while its requests wait for the new token, then completes', async () => {
    const changes: UploadJob[] = [];
    // The access token expires mid-upload, several times, on the queue's own events (not a clock).
    let invalidate: (() => void) | null = null;
    let expired = 0;
    const h = await openQueue(core.service, {
      emit: (event, payload) => {
        if (event === 'uploads:job-changed') changes.push(payload as UploadJob);
        // When the job starts uploading (before its chunk requests take a token) and at each
        // progress report: the requests that start next wait on a refresh.
        const starts = event === 'uploads:job-changed' && (payload as UploadJob).state === 'uploading';
        if ((starts || event === 'uploads:progress') && invalidate && expired < 4) {
          expired++;
          invalidate();
        }
      },
    });
    invalidate = () => void h.session.token().then((t) => h.session.invalidate(t));
    // About 1.5 MB in 64 KiB chunks at 4 Mbit/s: a few seconds of chunk requests.
    h.queue.setSettings({ concurrency: 1, limit_mbps: 4, schedule: [] });
    const path = writeFastq(join(core.root, 'refresh.fastq'), 12_000);
    await enqueueData(h.queue, [path]);
    await h.queue.waitForIdle();
    expect(expired).toBeGreaterThan(0);
    const job = h.queue.list().jobs[0]!;
    expect(job).toMatchObject({ state: 'completed', checksum: sha256Of(path), waiting_reason: null });
    const reasons = changes.filter((c) => c.id === job.id).map((c) => c.waiting_reason);
    expect(reasons).toContain('token-refresh');
    // Each wait ends: a token-refresh report is always followed by one without it.
    const last = reasons.lastIndexOf('token-refresh');
    expect(reasons.slice(last + 1)).toContain(null);
    await h.close();
  }, 60_000);
});
