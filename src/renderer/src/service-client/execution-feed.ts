/**
 * Follows one execution: the `executionUpdates` GraphQL subscription over graphql-ws while the
 * WebSocket holds, and REST polling (`GET /api/executions/{id}` and `/logs?after=`) while it
 * does not. Status, progress and processes come from the pushed updates; log lines are always
 * read from the REST log cursor (a pushed log line only triggers a read), because those lines
 * carry ids: after a reconnect or a fallback to polling nothing is lost or shown twice.
 */
import { createClient, type Client } from 'graphql-ws';
import { ServiceError } from '../../../shared/service-client/service-error';
import type { ServiceClient } from './http-client';
import { socketReauth } from './socket-reauth';
import type { Execution, LogEntry, ProcessExecution } from './types';
import { getExecutionsById, getExecutionsByIdLogs } from '../../../shared/service-api/endpoints';
import type { ExecutionUpdate } from '../../../shared/service-api/graphql';
import { EXECUTION_UPDATES_SUBSCRIPTION } from '../../../shared/service-api/graphql-operations';

/** `missing`: the service has no such execution for this user (deleted, or not shared): not followed. */
export type FeedMode = 'connecting' | 'live' | 'polling' | 'finished' | 'missing';

export interface FeedSink {
  execution(e: Execution): void;
  /** New log lines (already de-duplicated), in order. */
  logs(lines: LogEntry[]): void;
  mode(mode: FeedMode): void;
  error(err: unknown): void;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const LOG_PAGE = 5000;

const POLL_MS = 2000;

/** An execution the service does not know (for this user): asking again every 2 s cannot help. */
const missing = (err: unknown) => err instanceof ServiceError && err.code === 'NOT_FOUND';

/** Starts following; returns the stop function. */
export function followExecution(client: ServiceClient, id: number, sink: FeedSink): () => void {
  let stopped = false;
  let current: Execution | null = null;
  let lastLogId = 0;
  let pollTimer: ReturnType<typeof setTimeout> | null = null;
  let detailTimer: ReturnType<typeof setTimeout> | null = null;
  let logsTimer: ReturnType<typeof setTimeout> | null = null;
  let pulling: Promise<void> = Promise.resolve();
  let ws: Client | null = null;
  let live = false;
  // The socket outlives each access token by re-authenticating in-band before it expires.
  const reauth = socketReauth(() => client.accessToken(true));

  const emit = (e: Execution) => {
    current = e;
    sink.execution(e);
    if (TERMINAL.has(e.status)) sink.mode('finished');
  };

  // Pulls run one after another, so a line announced during a pull is read by the next one.
  const pullLogs = () => (pulling = pulling.catch(() => {}).then(pullLogsNow));
  const pullLogsNow = async () => {
    // Page through everything after the last line we hold (a fresh dashboard may be far behind).
    for (;;) {
      const page = await client.call(getExecutionsByIdLogs, {
        params: { id },
        query: { after: lastLogId, limit: LOG_PAGE },
      });
      const fresh = page.items.filter((l) => (l.id ?? 0) > lastLogId);
      if (fresh.length) {
        lastLogId = fresh[fresh.length - 1]!.id ?? lastLogId;
        sink.logs(fresh);
      }
      if (stopped || page.items.length < LOG_PAGE) return;
    }
  };

  // Only the newest detail request may land: an older one answered late would bring back a
  // running state (and its "still running" reasons) after the run ended.
  let detailSeq = 0;
  const pullDetail = async () => {
    const seq = ++detailSeq;
    const e = await client.call(getExecutionsById, { params: { id } });
    if (seq === detailSeq) emit({ ...e, logs: undefined });
  };

  const poll = async () => {
    pollTimer = null;
    if (stopped || live) return;
    try {
      await pullDetail();
      await pullLogs();
    } catch (err) {
      sink.error(err);
      if (missing(err)) return sink.mode('missing');
    }
    if (!stopped && !live && current && !TERMINAL.has(current.status))
      pollTimer = setTimeout(() => void poll(), POLL_MS);
  };

  const startPolling = () => {
    if (stopped || pollTimer || (current && TERMINAL.has(current.status))) return;
    sink.mode('polling');
    pollTimer = setTimeout(() => void poll(), 0);
  };

  // Process exit codes, CPU and memory come from the REST detail: refresh it now and then.
  const scheduleDetail = () => {
    if (detailTimer || stopped) return;
    detailTimer = setTimeout(() => {
      detailTimer = null;
      void pullDetail().catch(sink.error);
    }, 1000);
  };

  const apply = (u: ExecutionUpdate) => {
    // Until the REST detail arrives the creation time is unknown (shown as a dash).
    const base: Execution = current ?? {
      id,
      name: `Execution ${id}`,
      status: u.status,
      progress: u.progress,
      created: '',
    };
    const procs = new Map<string, ProcessExecution>((base.process_executions ?? []).map((p) => [p.name, p]));
    for (const p of u.processExecutions ?? [])
      procs.set(p.process, {
        ...procs.get(p.process),
        name: p.process,
        status: p.status,
        progress: p.progress,
        start_time: p.startTime ?? procs.get(p.process)?.start_time ?? null,
        end_time: p.endTime ?? procs.get(p.process)?.end_time ?? null,
      });
    const ended = TERMINAL.has(u.status) && !TERMINAL.has(base.status);
    emit({ ...base, status: u.status, progress: u.progress, process_executions: [...procs.values()] });
    if ((u.logs?.length || TERMINAL.has(u.status)) && !logsTimer)
      logsTimer = setTimeout(() => {
        logsTimer = null;
        void pullLogs().catch(sink.error);
      }, 200);
    // The end changes what may be done next (re-run, resume and their reasons): ask at once.
    if (ended) void pullDetail().catch(sink.error);
    else scheduleDetail();
  };

  const subscribe = () => {
    const base = client.baseUrl();
    if (!base) return startPolling();
    ws = createClient({
      url: `${base.replace(/^http/, 'ws')}/api/graphql`,
      connectionParams: async () => ({ authorization: `Bearer ${(await client.accessToken(false)) ?? ''}` }),
      retryAttempts: Number.POSITIVE_INFINITY,
      shouldRetry: () => !stopped,
      retryWait: async (retries) => new Promise((r) => setTimeout(r, Math.min(10_000, 500 * 2 ** retries))),
      on: {
        connected: (_socket, payload) => {
          reauth.connected(payload);
          live = true;
          // Catch up on lines written while we were polling or reconnecting.
          void pullLogs().catch(sink.error);
          if (pollTimer) clearTimeout(pollTimer);
          pollTimer = null;
          sink.mode(current && TERMINAL.has(current.status) ? 'finished' : 'live');
        },
        closed: () => {
          if (stopped) return;
          live = false;
          startPolling();
        },
      },
    });
    reauth.attach(ws);
    ws.subscribe<{ executionUpdates?: ExecutionUpdate }>(
      { query: EXECUTION_UPDATES_SUBSCRIPTION, variables: { id: String(id) } },
      {
        next: (r) => {
          const u = r.data?.executionUpdates;
          if (u) apply(u);
          if (r.errors?.length) sink.error(new Error(r.errors.map((e) => e.message).join('; ')));
        },
        error: (err) => {
          if (stopped) return;
          sink.error(err instanceof Error ? err : new Error('The live connection failed'));
          live = false;
          startPolling();
        },
        complete: () => {},
      },
    );
  };

  sink.mode('connecting');
  // The snapshot and the history first, then live updates on top of it.
  void (async () => {
    try {
      await pullDetail();
      await pullLogs();
    } catch (err) {
      sink.error(err);
      // Not there (a mistyped address, deleted, no longer shared): said once, not followed.
      if (missing(err)) return sink.mode('missing');
    }
    // A service that pushes nothing (a Flow server) is polled from the start.
    if (!stopped) {
      if (client.live()) subscribe();
      else startPolling();
    }
  })();

  return () => {
    stopped = true;
    if (pollTimer) clearTimeout(pollTimer);
    if (detailTimer) clearTimeout(detailTimer);
    if (logsTimer) clearTimeout(logsTimer);
    reauth.stop();
    void ws?.dispose();
  };
}
