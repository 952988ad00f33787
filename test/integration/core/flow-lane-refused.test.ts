/**
 * A Flow lane the server refuses ends "failed" in the desktop with the server's words (issue 23):
 * a sheet with errors (Flow's `validation` verdict on `/upload/annotation`) and a read 1 that is
 * not FASTQ (its first chunk refused by the format check) each end the lane's group failed with
 * that message — the Uploads screen's group line, the Lane screen and the notifier read it from
 * the group, one notice per lane — and read 2 ends with read 1's reason instead of waiting. Retrying the files after
 * the cause is fixed reopens the group and the lane is made. Against Laneway's own `/flow/api`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { enqueueLane } from '../../../src/main/core/ingest/confirm';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { groupNotice, jobNotice, type UploadNotice } from '../../../src/renderer/src/features/frame/upload-notices';
import type { UploadGroup, UploadJob } from '../../../src/shared/desktop-api/upload-schemas';
import { tempDir } from '../../helpers/temp';
import { coreSuite } from './core-suite';
import { openFlowCore, signInOverFlow } from './flow-core-parts';
import { makeFlowLane } from './flow-lane-fixture';

const suite = coreSuite();
const state = tempDir('laneway-flow-refused-');
const files = tempDir('laneway-flow-refused-files-');

afterAll(() => {
  state.remove();
  files.remove();
});

describe('a Flow lane the server refuses', () => {
  it('ends failed with the server message, for a refused sheet and a refused chunk; retry reopens it', async () => {
    const db = openQueueDb(state.path);
    const groupEvents: UploadGroup[] = [];
    // What the desktop notifier would show for the queue's events, in order.
    const notices: UploadNotice[] = [];
    const core = openFlowCore(state.path, db, {
      chunkSize: 64 * 1024,
      onEvent: (event, payload) => {
        const notice =
          event === 'uploads:group-changed'
            ? groupNotice(payload as UploadGroup)
            : event === 'uploads:job-changed'
              ? jobNotice(payload as UploadJob)
              : null;
        if (notice) notices.push(notice);
        if (event === 'uploads:group-changed') groupEvents.push(payload as UploadGroup);
      },
    });
    try {
      await signInOverFlow(core.sessions, suite.service.url);
      core.queue.start();
      const ended = async (name: string) => {
        await core.queue.waitForIdle();
        const list = core.queue.list();
        const group = list.groups.find((g) => g.name === name)!;
        const jobs = list.jobs.filter((j) => group.job_ids.includes(j.id));
        return {
          group,
          read1: jobs.find((j) => j.role === 'multiplexed')!,
          read2: jobs.find((j) => j.role === 'multiplexed-read2')!,
        };
      };

      // A sheet with errors: two samples on one barcode.
      const bad = await makeFlowLane(files.path, 'badsheet', 41, ([first, , ...rest]) => [first!, first!, ...rest]);
      await enqueueLane(core.queue, bad);
      const one = await ended('badsheet');
      expect(one.group.state).toBe('failed');
      expect(one.read1.state).toBe('failed');
      expect(one.group.error).toBe(one.read1.error);
      expect(one.read2).toMatchObject({
        state: 'failed',
        error: `Read 1 of this lane was not uploaded: ${one.read1.error}`,
      });
      expect(groupEvents.find((g) => g.name === 'badsheet' && g.state === 'failed')?.error).toBe(one.read1.error);
      // One notice for the refused lane, the group's, with the reason: not one per file as well.
      expect(notices).toEqual([
        {
          kind: 'lanes',
          tone: 'bad',
          title: 'Lane badsheet failed',
          body: one.read1.error,
          about: { what: 'Lane', name: 'badsheet' },
        },
      ]);

      // A read 1 that is not FASTQ: its first chunk refused by the server's format check.
      const lane = await makeFlowLane(files.path, 'badread', 42);
      const good = readFileSync(lane.file);
      writeFileSync(lane.file, 'This is not a FASTQ file, whatever its name says.\n'.repeat(2000));
      await enqueueLane(core.queue, lane);
      const two = await ended('badread');
      expect(two.group.state).toBe('failed');
      expect(two.read1.state).toBe('failed');
      expect(two.group.error).toBe(two.read1.error);
      expect(two.read2.error).toBe(`Read 1 of this lane was not uploaded: ${two.read1.error}`);
      expect(notices.slice(1)).toEqual([
        {
          kind: 'lanes',
          tone: 'bad',
          title: 'Lane badread failed',
          body: two.read1.error,
          about: { what: 'Lane', name: 'badread' },
        },
      ]);

      // The file fixed and both retried: the group reopens and the lane is made.
      writeFileSync(lane.file, good);
      core.queue.retry(two.read1.id);
      core.queue.retry(two.read2.id);
      expect(core.queue.list().groups.find((g) => g.name === 'badread')!.state).toBe('uploading');
      const three = await ended('badread');
      expect(three.group.state, three.group.error ?? '').toBe('created');
      expect([three.read1.state, three.read2.state]).toEqual(['completed', 'completed']);
      expect(notices.slice(2).map((n) => n.title)).toEqual(['Lane badread uploaded']);
    } finally {
      await core.queue.stop();
      await core.sessions.close();
      db.close();
    }
  }, 180_000);
});
