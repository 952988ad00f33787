/**
 * The desktop notifier's upload notices (issue 23): a file of a sample or lane never notifies on
 * its own (its group does, with the reason); a file outside any group still does. The lane
 * case runs against real queue events in test/integration/core/flow-lane-refused.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { groupNotice, jobNotice } from '../../../src/renderer/src/features/frame/upload-notices';
import type { UploadGroup, UploadJob } from '../../../src/shared/desktop-api/upload-schemas';

const job = (over: Partial<UploadJob>): UploadJob => ({
  id: 1,
  profile_id: 'p',
  path: '/runs/a.fastq.gz',
  filename: 'a.fastq.gz',
  role: 'data',
  group_id: null,
  state: 'failed',
  priority: 'normal',
  waiting_reason: null,
  bytes_total: 10,
  bytes_sent: 0,
  speed_bps: 0,
  eta_seconds: null,
  attempts: 1,
  error: 'The source file is gone',
  data_id: null,
  checksum: null,
  deduplicated: false,
  created: '2026-11-26T03:00:00.000Z',
  updated: '2026-11-26T03:00:00.000Z',
  ...over,
});

describe('upload notices', () => {
  it('a failed file outside any group notifies with its reason', () => {
    expect(jobNotice(job({}))).toEqual({
      kind: 'uploads',
      tone: 'bad',
      title: 'Upload of a.fastq.gz failed',
      body: 'The source file is gone',
    });
    expect(jobNotice(job({ state: 'completed', error: null }))).toBeNull();
  });

  it("a failed file of a sample says nothing; the sample's group says it, with the reason", () => {
    expect(jobNotice(job({ group_id: 7, role: 'read1' }))).toBeNull();
    const group: UploadGroup = {
      id: 7,
      kind: 'sample',
      name: 'S1',
      state: 'failed',
      created_id: null,
      error: 'The source file is gone',
      job_ids: [1, 2],
    };
    expect(groupNotice(group)).toEqual({
      kind: 'uploads',
      tone: 'bad',
      title: 'Sample S1 failed',
      body: 'The source file is gone',
    });
    expect(groupNotice({ ...group, state: 'uploading', error: null })).toBeNull();
  });
});
