/**
 * Follows one execution to its end by polling `GET /api/executions/{id}` with back-off: a Flow
 * server has no subscriptions (FLOW-WIRE.md: executions are read, P1-18), so the core asks,
 * soon after a change and less often while nothing moves (the interval doubles up to a
 * ceiling and drops back to the floor on a change). A service that cannot be reached for a
 * moment is asked again at the next interval; a refusal ends the follow with its error.
 */
import { getExecutionsById } from '../../../shared/service-api/endpoints';
import type { Execution } from '../../../shared/service-api';
import { ServiceError } from '../../../shared/service-client/service-error';
import type { ServiceClient } from '../service-client/service-client';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export interface FollowOptions {
  /** The first interval and the one after a change (ms). */
  minMs?: number;
  /** The longest interval (ms). */
  maxMs?: number;
  /** Waits between polls; tests pass their own (fakes for time). Rejects when `signal` aborts. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told of each status or progress the execution moved to. */
  onChange?: (execution: Execution) => void;
  signal?: AbortSignal;
}

function realWait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Polls until the execution is completed, failed or cancelled; answers it as it ended. */
export async function followExecution(
  client: Pick<ServiceClient, 'call'>,
  id: number,
  options: FollowOptions = {},
): Promise<Execution> {
  const min = options.minMs ?? 2_000;
  const max = options.maxMs ?? 60_000;
  const wait = options.wait ?? realWait;
  let interval = min;
  let last = '';
  for (;;) {
    let execution: Execution | null = null;
    try {
      execution = await client.call(getExecutionsById, { params: { id } });
    } catch (err) {
      if (!(err instanceof ServiceError) || !err.retryable) throw err;
    }
    if (execution) {
      const seen = `${execution.status}:${execution.progress}`;
      if (seen !== last) {
        last = seen;
        interval = min;
        options.onChange?.(execution);
      } else interval = Math.min(max, interval * 2);
      if (TERMINAL.has(execution.status)) return execution;
    } else interval = Math.min(max, interval * 2);
    await wait(interval, options.signal);
  }
}
