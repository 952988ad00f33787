/**
 * The upload queue as the desktop core reports it. Progress events arrive throttled by the core
 * (a few per second) and are merged into the jobs here, so rows re-render only when theirs moved.
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
      for (const j of p.jobs) {
        const old = jobs[j.id];
        if (old) jobs[j.id] = { ...old, ...j };
      }
      return { uploadJobs: jobs, uploadOverall: p.overall };
    }),
  upsertUploadJob: (job) => set((s) => ({ uploadJobs: { ...s.uploadJobs, [job.id]: job } })),
  upsertUploadGroup: (group) => set((s) => ({ uploadGroups: { ...s.uploadGroups, [group.id]: group } })),
});
