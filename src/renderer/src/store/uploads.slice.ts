/**
 * The upload queue as the desktop core reports it. Progress events arrive throttled by the core
 * (a few per second) and are merged into the jobs here, so rows re-render only when theirs moved.
 * The screen hands the core's events over in batches (upload-events.ts): one change of the store
 * per frame, however many files changed state in it.
 */
import type { StateCreator } from 'zustand';
import type {
  OverallProgress,
  ProgressEvent,
  UploadGroup,
  UploadJob,
  UploadList,
  UploadSettings,
} from '../../../shared/desktop-api/contract';

/** One event of the upload queue, as the core sends it. */
export type UploadEvent =
  | { kind: 'progress'; progress: ProgressEvent }
  | { kind: 'job'; job: UploadJob }
  | { kind: 'group'; group: UploadGroup };

/** Merges a progress event's figures into the rows it names (rows not listed yet are left). */
function mergeProgress(jobs: Record<number, UploadJob>, p: ProgressEvent): void {
  for (const j of p.jobs) {
    const old = jobs[j.id];
    if (old) jobs[j.id] = { ...old, ...j };
  }
}

export interface UploadsSlice {
  uploadJobs: Record<number, UploadJob>;
  uploadGroups: Record<number, UploadGroup>;
  uploadOverall: OverallProgress | null;
  /** The queue's settings as last read or saved (the screen shows speeds in the limit's unit). */
  uploadSettings: UploadSettings | null;
  setUploadSettings(settings: UploadSettings): void;
  setUploadList(list: UploadList): void;
  applyUploadProgress(p: ProgressEvent): void;
  upsertUploadJob(job: UploadJob): void;
  /** Applies the core's events in the order they came, as one change of the store. */
  applyUploadEvents(events: readonly UploadEvent[]): void;
  upsertUploadGroup(group: UploadGroup): void;
}

export const createUploadsSlice: StateCreator<UploadsSlice, [], [], UploadsSlice> = (set) => ({
  uploadJobs: {},
  uploadGroups: {},
  uploadOverall: null,
  uploadSettings: null,
  setUploadSettings: (uploadSettings) => set({ uploadSettings }),
  setUploadList: (list) =>
    set({
      uploadJobs: Object.fromEntries(list.jobs.map((j) => [j.id, j])),
      uploadGroups: Object.fromEntries(list.groups.map((g) => [g.id, g])),
      uploadOverall: list.overall,
    }),
  applyUploadProgress: (p) =>
    set((s) => {
      const jobs = { ...s.uploadJobs };
      mergeProgress(jobs, p);
      return { uploadJobs: jobs, uploadOverall: p.overall };
    }),
  applyUploadEvents: (events) =>
    set((s) => {
      let jobs: Record<number, UploadJob> | null = null;
      let groups: Record<number, UploadGroup> | null = null;
      let overall = s.uploadOverall;
      for (const e of events) {
        if (e.kind === 'job') (jobs ??= { ...s.uploadJobs })[e.job.id] = e.job;
        else if (e.kind === 'group') (groups ??= { ...s.uploadGroups })[e.group.id] = e.group;
        else {
          mergeProgress((jobs ??= { ...s.uploadJobs }), e.progress);
          overall = e.progress.overall;
        }
      }
      return { uploadJobs: jobs ?? s.uploadJobs, uploadGroups: groups ?? s.uploadGroups, uploadOverall: overall };
    }),
  upsertUploadJob: (job) => set((s) => ({ uploadJobs: { ...s.uploadJobs, [job.id]: job } })),
  upsertUploadGroup: (group) => set((s) => ({ uploadGroups: { ...s.uploadGroups, [group.id]: group } })),
});
