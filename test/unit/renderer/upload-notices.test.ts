/**
 * The desktop notifier's upload notices (issue 23): a file of a sample or lane never notifies on
 * its own (its group does, with the reason); a file outside any group still does. The lane
 * case runs against real queue events in test/integration/core/flow-lane-refused.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  groupNotice,
  jobNotice,
  NoticeHold,
  summariseNotices,
  type UploadNotice,
} from '../../../src/renderer/src/features/frame/upload-notices';
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
      about: { what: 'file', name: 'a.fastq.gz' },
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
      about: { what: 'Sample', name: 'S1' },
    });
    expect(groupNotice({ ...group, state: 'uploading', error: null })).toBeNull();
  });

  it('gives a few notices arriving together one by one, and many of one kind as one summary', () => {
    const sample = (name: string, state: 'created' | 'failed', error: string | null = null): UploadGroup => ({
      id: 1,
      kind: 'sample',
      name,
      state,
      created_id: state === 'created' ? 1 : null,
      error,
      job_ids: [1],
    });
    const created = (n: number) => Array.from({ length: n }, (_, i) => groupNotice(sample(`P${i + 1}`, 'created'))!);
    // Three are three notices, as before.
    expect(summariseNotices(created(3)).map((n) => n.title)).toEqual([
      'Sample P1 uploaded',
      'Sample P2 uploaded',
      'Sample P3 uploaded',
    ]);
    // A plate of 2,000, two lanes and one failed sample in the same second: one summary for the
    // samples, and the lanes and the failure on their own.
    const lane = groupNotice({ ...sample('L1', 'created'), kind: 'lane' })!;
    const lane2 = groupNotice({ ...sample('L2', 'created'), kind: 'lane' })!;
    const failed = groupNotice(sample('BAD', 'failed', 'The source file is gone'))!;
    const out = summariseNotices([...created(1000), lane, failed, ...created(1000), lane2]);
    expect(out).toHaveLength(4);
    expect(out[0]).toMatchObject({
      kind: 'uploads',
      tone: 'ok',
      title: '2,000 samples uploaded',
      body: 'P1, P2, P3 and 1,997 more: on the service.',
    });
    // Kinds in the order each first came, notices of a kind together.
    expect(out.slice(1).map((n) => n.title)).toEqual(['Lane L1 uploaded', 'Lane L2 uploaded', 'Sample BAD failed']);
    // Many failures: the reason when they share one, else a pointer to each.
    const gone = Array.from({ length: 5 }, (_, i) =>
      groupNotice(sample(`F${i}`, 'failed', 'The source file is gone'))!,
    );
    expect(summariseNotices(gone)).toEqual([
      {
        kind: 'uploads',
        tone: 'bad',
        title: '5 samples failed',
        body: 'F0, F1, F2 and 2 more. The source file is gone',
        about: { what: 'Sample', name: 'F0' },
      },
    ]);
    const mixed = [...gone, groupNotice(sample('F9', 'failed', 'Refused: name in use'))!];
    expect(summariseNotices(mixed)[0]!.body).toBe('F0, F1, F2 and 3 more. See the Uploads screen for each reason.');
    const files = Array.from({ length: 4 }, (_, i) => jobNotice(job({ filename: `f${i}.fastq` }))!);
    expect(summariseNotices(files)[0]!.title).toBe('Uploads of 4 files failed');
  });
});

describe('the hold of upload notices (time faked)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const created = (name: string): UploadNotice =>
    groupNotice({ id: 1, kind: 'sample', name, state: 'created', created_id: 9, error: null, job_ids: [1] })!;

  it('gives the notices of one second together, from the first one, as one summary when many', () => {
    vi.useFakeTimers();
    const given: UploadNotice[][] = [];
    const hold = new NoticeHold((n) => given.push(n), 1_000);
    hold.add(created('P1'));
    vi.advanceTimersByTime(600);
    for (const n of ['P2', 'P3', 'P4', 'P5']) hold.add(created(n));
    hold.add(null);
    vi.advanceTimersByTime(399);
    expect(given).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(given).toHaveLength(1);
    expect(given[0]!.map((n) => n.title)).toEqual(['5 samples uploaded']);
    expect(given[0]![0]!.body).toBe('P1, P2, P3 and 2 more: on the service.');
    // The next notice starts a hold of its own.
    hold.add(created('P6'));
    vi.advanceTimersByTime(999);
    expect(given).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(given[1]!.map((n) => n.title)).toEqual(['Sample P6 uploaded']);
  });

  it('gives a few notices one by one, and what it holds at once when flushed', () => {
    vi.useFakeTimers();
    const given: UploadNotice[][] = [];
    const hold = new NoticeHold((n) => given.push(n), 1_000);
    hold.add(created('A'));
    hold.add(created('B'));
    // The screen goes away (signed out): nothing held is lost, and no timer gives it twice.
    hold.flush();
    expect(given.map((g) => g.map((n) => n.title))).toEqual([['Sample A uploaded', 'Sample B uploaded']]);
    vi.advanceTimersByTime(5_000);
    expect(given).toHaveLength(1);
    hold.flush();
    expect(given).toHaveLength(1);
  });
});
