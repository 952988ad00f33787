/** The overall progress figure of the queue and the throttled progress event's payload. */
import type { OverallProgress, ProgressEvent, WaitingReason } from '../../../shared/desktop-api/contract';
import { expectedSize } from './expected-size';
import { presentJob, type JobRow, type TotalsRow } from './job-store';
import type { ProgressTracker } from './progress';

/** Totals over all jobs: bytes, speed, ETA, counts and the most pressing waiting reason. */
export function overallProgress(
  jobs: readonly TotalsRow[],
  progress: ProgressTracker,
  extra: { offline: boolean; scheduled: boolean },
  /** Bytes of completed jobs left out of `jobs` (JobStore.totalsRows): sent, and in the total. */
  completedBytes = 0,
): OverallProgress {
  let total = completedBytes;
  let sent = completedBytes;
  let reason: WaitingReason | null = null;
  for (const j of jobs) {
    if (j.state === 'cancelled') continue;
    const live = progress.get(j.id);
    // Queued files count in the total before they start (issue 16: totals of started files only).
    total += expectedSize(j);
    sent += j.state === 'completed' ? expectedSize(j) : (live?.bytesSent ?? j.bytes_sent);
    reason ??= j.waiting_reason;
  }
  // Only while something uploads is there a speed: paused, finished or waiting queues are idle.
  const moving = jobs.some((j) => j.state === 'uploading');
  const speed = moving ? progress.overallSpeed() : 0;
  if (extra.offline) reason = 'offline';
  else if (!reason && extra.scheduled) reason = 'bandwidth-schedule';
  return {
    jobs_active: jobs.filter((j) => j.state === 'uploading' || j.state === 'hashing').length,
    // An ETA only while something moves; idle is idle, not "ETA 0 s".
    jobs_queued: jobs.filter((j) => j.state === 'queued' || j.state === 'waiting').length,
    jobs_failed: jobs.filter((j) => j.state === 'failed').length,
    bytes_total: total,
    bytes_sent: sent,
    speed_bps: speed,
    eta_seconds: speed > 0 && total > sent ? (total - sent) / speed : null,
    paused: jobs.some((j) => j.state === 'paused'),
    waiting_reason: reason,
  };
}

/** The `uploads:progress` payload: every running job and the overall figure. */
export function progressPayload(running: JobRow[], progress: ProgressTracker, overall: OverallProgress): ProgressEvent {
  return {
    jobs: running.map((r) => {
      const j = presentJob(r, progress.get(r.id));
      return {
        id: j.id,
        state: j.state,
        bytes_sent: j.bytes_sent,
        bytes_total: j.bytes_total,
        speed_bps: j.speed_bps,
        eta_seconds: j.eta_seconds,
        waiting_reason: j.waiting_reason,
      };
    }),
    overall,
  };
}
