/**
 * Follows the executions that watched runs launched, to their end, and writes how each went
 * into the run's timeline (`launched`, its note: "FASTQ Quality Control: execution 7 completed").
 * It polls with back-off (execution-follow.ts): a Flow server has no subscriptions, and the
 * same code serves Laneway's service, so the core does not branch on the wire.
 */
import type { ServiceClient } from '../service-client/service-client';
import type { RunRow, RunStore } from '../runs/run-store';
import { followExecution, type FollowOptions } from './execution-follow';

const ENDED = / (completed|failed|cancelled)$/;

export interface LaunchFollowerOptions {
  runs: RunStore;
  client: () => ServiceClient | null;
  /** Called when a run's note changed. */
  changed: (run: RunRow) => void;
  log?: (msg: string) => void;
  /** Poll intervals (tests shorten them). */
  poll?: Pick<FollowOptions, 'minMs' | 'maxMs'>;
}

export class LaunchFollower {
  private readonly following = new Set<number>();
  private stopping = new AbortController();

  constructor(private readonly options: LaunchFollowerOptions) {}

  /** Starts following a launched run's execution, once, unless it already ended. */
  follow(run: RunRow): void {
    if (run.state !== 'launched' || run.execution_id === null || this.following.has(run.id)) return;
    if (this.stopping.signal.aborted) return;
    const timeline = JSON.parse(run.timeline) as Array<{ note: string | null }>;
    const note = timeline.at(-1)?.note ?? '';
    if (ENDED.test(note)) return;
    const client = this.options.client();
    if (!client) return;
    const label = note.replace(/: execution \d+.*$/, '') || 'Pipeline';
    const execution = run.execution_id;
    this.following.add(run.id);
    const signal = this.stopping.signal;
    followExecution(client, execution, {
      ...this.options.poll,
      signal,
      onChange: (e) => {
        const next = this.options.runs.setState(run.id, 'launched', `${label}: execution ${execution} ${e.status}`);
        this.options.changed(next);
      },
    })
      .catch((err: unknown) => {
        if (!signal.aborted)
          this.options.log?.(`following execution ${execution} of run ${run.id}: ${(err as Error).message}`);
      })
      .finally(() => this.following.delete(run.id));
  }

  /** Stops every follow (the watchers stop); a later start follows again. */
  close(): void {
    this.stopping.abort();
    this.stopping = new AbortController();
  }
}
