/**
 * The Uploads screen takes the queue's events in batches (upload-events.ts, issue 21): every
 * event that arrives before the next frame reaches the store in one change, in the order sent
 * (a file's new state, then its progress on top), a window without frames still gets them after
 * a tenth of a second, and leaving the screen hands over what is pending. Frames and the
 * tenth-of-a-second timer are faked (time only); the store is the app's own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followUploadEvents } from '../../../src/renderer/src/features/uploads/upload-events';
import { useAppStore } from '../../../src/renderer/src/store';
import type { EventName, EventPayload, OverallProgress } from '../../../src/shared/desktop-api/contract';
import type { UploadGroup, UploadJob } from '../../../src/shared/desktop-api/upload-schemas';

const job = (id: number, over: Partial<UploadJob> = {}): UploadJob => ({
  id,
  profile_id: 'p',
  path: `/runs/s${id}.fastq`,
  filename: `s${id}.fastq`,
  role: 'read1',
  group_id: id,
  state: 'queued',
  priority: 'normal',
  waiting_reason: null,
  bytes_total: 100,
  bytes_sent: 0,
  speed_bps: 0,
  eta_seconds: null,
  attempts: 0,
  error: null,
  data_id: null,
  checksum: null,
  deduplicated: false,
  created: '2026-11-27T06:00:00.000Z',
  updated: '2026-11-27T06:00:00.000Z',
  ...over,
});

const group = (id: number, state: UploadGroup['state']): UploadGroup => ({
  id,
  kind: 'sample',
  name: `S${id}`,
  state,
  created_id: null,
  error: null,
  job_ids: [id],
});

const overall = (sent: number): OverallProgress => ({
  jobs_active: 1,
  jobs_queued: 0,
  jobs_failed: 0,
  bytes_total: 100,
  bytes_sent: sent,
  speed_bps: 10,
  eta_seconds: 1,
  paused: false,
  waiting_reason: null,
});

/** A desktop API with only `on`, whose events the test sends. */
function fakeApi() {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  return {
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (p: unknown) => void);
      return () => set.delete(listener as (p: unknown) => void);
    },
    send<E extends EventName>(event: E, payload: EventPayload<E>) {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
  };
}

describe('the Uploads screen takes the queue events in batches', () => {
  let frames: Array<() => void> = [];
  beforeEach(() => {
    vi.useFakeTimers();
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frames.push(cb));
    vi.stubGlobal('cancelAnimationFrame', (id: number) => {
      frames[id - 1] = () => {};
    });
    useAppStore.setState({ uploadJobs: {}, uploadGroups: {}, uploadOverall: null });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  const nextFrame = () => frames.splice(0).forEach((f) => f());

  it('applies the events before a frame in one change of the store, in the order sent', () => {
    const api = fakeApi();
    const off = followUploadEvents(api);
    let changes = 0;
    const unsubscribe = useAppStore.subscribe(() => changes++);
    for (let id = 1; id <= 300; id++) {
      api.send('uploads:job-changed', job(id));
      api.send('uploads:group-changed', group(id, 'uploading'));
    }
    api.send('uploads:job-changed', job(7, { state: 'uploading' }));
    api.send('uploads:progress', {
      jobs: [
        {
          id: 7,
          state: 'uploading',
          bytes_sent: 60,
          bytes_total: 100,
          speed_bps: 10,
          eta_seconds: 4,
          waiting_reason: null,
        },
      ],
      overall: overall(60),
    });
    expect(changes).toBe(0);
    nextFrame();
    expect(changes).toBe(1);
    const s = useAppStore.getState();
    expect(Object.keys(s.uploadJobs)).toHaveLength(300);
    expect(Object.keys(s.uploadGroups)).toHaveLength(300);
    // The progress came after the state: it is merged on top of it.
    expect(s.uploadJobs[7]).toMatchObject({ state: 'uploading', bytes_sent: 60, speed_bps: 10 });
    expect(s.uploadOverall).toEqual(overall(60));
    // A state sent after a progress replaces the row whole.
    api.send('uploads:job-changed', job(7, { state: 'completed', bytes_sent: 100 }));
    nextFrame();
    expect(useAppStore.getState().uploadJobs[7]).toMatchObject({ state: 'completed', bytes_sent: 100, speed_bps: 0 });
    expect(changes).toBe(2);
    unsubscribe();
    off();
  });

  it('hands events over without frames (a window in the background), and when the screen closes', () => {
    const api = fakeApi();
    const off = followUploadEvents(api);
    api.send('uploads:group-changed', group(1, 'uploading'));
    vi.advanceTimersByTime(100);
    expect(useAppStore.getState().uploadGroups[1]?.state).toBe('uploading');
    api.send('uploads:group-changed', group(1, 'created'));
    off();
    expect(useAppStore.getState().uploadGroups[1]?.state).toBe('created');
    // Unsubscribed: later events are not taken.
    api.send('uploads:group-changed', group(2, 'uploading'));
    vi.advanceTimersByTime(100);
    nextFrame();
    expect(useAppStore.getState().uploadGroups[2]).toBeUndefined();
  });
});
