/**
 * What a job's run outcome does to the job: completion, a permanent failure with the
 * service's message, a restart under a new file_id (bounded), a wait for the network or a
 * sign-in that burns no attempts, or a retry after backoff with jitter (bounded).
 */
import type { RunOutcome } from './job-runner';
import { backoffDelay } from './backoff';
import type { JobRow, JobStore } from './job-store';

export interface OutcomePolicy {
  now: () => number;
  random: () => number;
  maxAttempts: number;
  maxRestarts: number;
  backoffBaseMs?: number;
}

/** Applies an outcome; answers the job row after it (null when nothing changed) and whether the network is gone. */
export function applyOutcome(
  store: JobStore,
  id: number,
  outcome: RunOutcome,
  policy: OutcomePolicy,
): { row: JobRow | null; offline: boolean } {
  const row = store.job(id);
  if (!row || outcome.kind === 'aborted' || row.state === 'paused' || row.state === 'cancelled')
    return { row: null, offline: false };
  switch (outcome.kind) {
    case 'completed':
      return {
        row:
          row.state === 'completed'
            ? row
            : store.complete(id, outcome.dataId, outcome.checksum, outcome.deduplicated, row),
        offline: false,
      };
    case 'failed':
      return {
        row: store.update(id, { state: 'failed', error: outcome.message, waiting_reason: null }),
        offline: false,
      };
    case 'restart':
      if (row.restarts + 1 > policy.maxRestarts) {
        return {
          row: store.update(id, {
            state: 'failed',
            error: `${outcome.reason}; gave up after ${row.restarts} restarts`,
          }),
          offline: false,
        };
      }
      store.restartJob(id, outcome.reason);
      return { row: store.update(id, { state: 'queued', next_attempt_at: 0 }), offline: false };
  }
  const message = outcome.error.message;
  if (outcome.reason === 'offline') {
    // Waiting for the network burns no attempts; the scheduler probes until it answers.
    return { row: store.update(id, { state: 'waiting', waiting_reason: 'offline', error: message }), offline: true };
  }
  if (outcome.reason === 'not-signed-in') {
    const next = policy.now() + 10_000;
    return {
      row: store.update(id, {
        state: 'queued',
        waiting_reason: 'not-signed-in',
        error: message,
        next_attempt_at: next,
      }),
      offline: false,
    };
  }
  const attempts = row.attempts + 1;
  if (attempts >= policy.maxAttempts) {
    return {
      row: store.update(id, { state: 'failed', attempts, error: message, waiting_reason: null }),
      offline: false,
    };
  }
  const delay = backoffDelay(attempts, policy.random, policy.backoffBaseMs);
  return {
    row: store.update(id, {
      state: 'queued',
      attempts,
      waiting_reason: 'backoff',
      error: message,
      next_attempt_at: policy.now() + delay,
    }),
    offline: false,
  };
}
