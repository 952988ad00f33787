/**
 * GraphQL root resolvers. They call the same commands as the REST routes; service errors
 * become GraphQL errors carrying the service's code (and extras) in `extensions`.
 */
import { GraphQLError } from 'graphql';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { accessTo, requireAccess } from '../policy/policy';
import { isTerminal } from '../executions/execution-events';
import { getExecution, listProcesses, tailLogs } from '../executions/executions.store';
import { rerunExecution, resumeExecution } from '../executions/rerun-resume.commands';
import { createRun, type RunInput } from '../executions/run-command';
import type { PipelineService } from '../executions/execution-service';
import { gqlExecution, gqlLog, gqlPipeline, gqlProcess, gqlUpdatePayload, type ExecutionUpdate } from './graphql-views';

export interface GqlContext {
  /** The caller, checked when the operation started. */
  user: AuthUser;
  /**
   * The caller as of now (a socket re-reads the account and its credential; throws when ended).
   * With `event`, the account row read for that event is shared by the user's other sockets.
   */
  recheck(event?: object): AuthUser;
  /** In-band re-authentication; only a WebSocket has it. */
  reauthenticate?: (token: string) => Promise<{ expiresAt: number | null }>;
}

/** The access decisions already taken for one event, by user id (null: allowed). */
const decided = new WeakMap<object, Map<number, unknown>>();

/**
 * Runs `check` once per event and user: an event published before a revocation may still
 * reach that user's other subscribers (it was theirs to see when it happened); one published
 * after it is decided afresh. Throws what the check threw.
 */
function onceForEvent(event: object, userId: number, check: () => void): void {
  let byUser = decided.get(event);
  if (!byUser) decided.set(event, (byUser = new Map()));
  if (!byUser.has(userId)) {
    try {
      check();
      byUser.set(userId, null);
    } catch (err) {
      byUser.set(userId, err);
    }
  }
  const err = byUser.get(userId);
  if (err !== null) throw err;
}

/**
 * The cost limit: mutations that start a run (runPipeline, rerunExecution, resumeExecution) per
 * operation, as REST starts one per request. One request once created 20 runs through aliases.
 */
export const MAX_RUNS_PER_OPERATION = 1;
const runsStarted = new WeakMap<GqlContext, number>();

function countRun(c: GqlContext): void {
  const n = (runsStarted.get(c) ?? 0) + 1;
  runsStarted.set(c, n);
  if (n > MAX_RUNS_PER_OPERATION) {
    throw errors.validation(
      { operation: `starts at most ${MAX_RUNS_PER_OPERATION} run per request: send one request per run` },
      'Too many runs in one request',
    );
  }
}

/** Log entries a late subscriber's first (snapshot) update carries. */
export const SNAPSHOT_LOGS = 500;

/** An ApiError as a GraphQL error with the service's code in extensions. */
export function toGraphQLError(err: unknown): GraphQLError {
  if (err instanceof GraphQLError) return err;
  if (err instanceof ApiError) {
    return new GraphQLError(err.message, { extensions: { code: err.code, status: err.status, ...err.extras } });
  }
  return new GraphQLError('Internal error: the service failed unexpectedly', {
    extensions: { code: 'INTERNAL', status: 500 },
  });
}

function guard<A, R>(ctx: ServiceContext, fn: (args: A, c: GqlContext) => R): (args: A, c: GqlContext) => R {
  return (args, c) => {
    try {
      return fn(args, c);
    } catch (err) {
      if (!(err instanceof ApiError)) ctx.log(`INTERNAL graphql: ${(err as Error)?.stack ?? String(err)}`);
      throw toGraphQLError(err);
    }
  };
}

function intId(value: unknown, field: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw errors.validation({ [field]: 'an id' });
  return n;
}

interface RunPipelineArgs {
  input?: {
    pipelineVersionId: string;
    name?: string;
    samples?: string[];
    parameters?: Record<string, unknown>;
    metadata?: Record<string, unknown>;
    upstreamExecution?: string;
    priority?: string;
    resources?: { cpus?: number; memory?: string; queue?: string; timeLimit?: string };
    testMode?: boolean;
    groupOwner?: string;
  } | null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The GraphQL input as the run command's input (the same checks as REST). */
function runInput(i: NonNullable<RunPipelineArgs['input']>): RunInput {
  if (i.parameters != null && !isObject(i.parameters)) throw errors.validation({ parameters: 'an object' });
  if (i.metadata != null && !isObject(i.metadata)) throw errors.validation({ metadata: 'an object' });
  if (i.priority != null && !['high', 'normal', 'low'].includes(i.priority))
    throw errors.validation({ priority: 'high, normal or low' });
  const r = i.resources;
  return {
    ...(i.name != null ? { name: i.name } : {}),
    ...(i.samples != null ? { samples: i.samples.map((s) => intId(s, 'samples')) } : {}),
    ...(i.parameters != null ? { parameters: i.parameters } : {}),
    ...(i.metadata != null ? { metadata: i.metadata } : {}),
    ...(i.upstreamExecution != null ? { upstream_execution: intId(i.upstreamExecution, 'upstreamExecution') } : {}),
    ...(i.priority != null ? { priority: i.priority as RunInput['priority'] } : {}),
    ...(r
      ? {
          resources: {
            cpus: r.cpus ?? undefined,
            memory: r.memory ?? undefined,
            queue: r.queue ?? undefined,
            time_limit: r.timeLimit ?? undefined,
          },
        }
      : {}),
    ...(i.testMode != null ? { test_mode: i.testMode } : {}),
    ...(i.groupOwner != null ? { group_owner: i.groupOwner } : {}),
  };
}

type Payload = { executionUpdates: ExecutionUpdate };

/** Live updates of one execution: the current state first, then each change, ending with it. */
function updatesOf(
  ctx: ServiceContext,
  svc: PipelineService,
  id: number,
  authorize: (event: object) => void,
): AsyncIterableIterator<Payload> {
  const row = getExecution(ctx.db, id)!;
  // Each payload with the event it came from: authorisation is decided once per event and
  // user, however many of that user's subscribers receive it.
  const buffer: Array<{ payload: Payload; event: object }> = [];
  const snapshot: Payload = {
    executionUpdates: {
      id: String(id),
      kind: 'SNAPSHOT',
      sequence: 0,
      status: row.status,
      progress: row.progress,
      error: row.error,
      processExecutions: listProcesses(ctx.db, id).map(gqlProcess),
      logs: tailLogs(ctx.db, id, SNAPSHOT_LOGS).map(gqlLog),
    },
  };
  buffer.push({ payload: snapshot, event: snapshot });
  let ended = isTerminal(row.status);
  let wake: (() => void) | null = null;
  // Read and subscribe in the same tick: nothing is missed and nothing arrives twice.
  const unsubscribe = ended
    ? () => {}
    : svc.events.subscribe(id, (e) => {
        buffer.push({ payload: gqlUpdatePayload(e), event: e });
        if (e.kind === 'STATUS' && isTerminal(e.status)) ended = true;
        wake?.();
      });
  const iterator: AsyncIterableIterator<Payload> = {
    async next() {
      while (buffer.length === 0 && !ended) await new Promise<void>((r) => (wake = r));
      wake = null;
      const next = buffer.shift();
      if (next) {
        // Every event is authorised as a REST read would be now: an account disabled or a share
        // revoked since the subscribe ends the stream with that error, before the event leaves.
        try {
          authorize(next.event);
        } catch (err) {
          ended = true;
          buffer.length = 0;
          unsubscribe();
          throw err;
        }
        return { value: next.payload, done: false };
      }
      unsubscribe();
      return { value: undefined, done: true };
    },
    async return() {
      ended = true;
      buffer.length = 0;
      unsubscribe();
      wake?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/** Root values for query, mutation and subscription. */
export function rootResolvers(ctx: ServiceContext, svc: PipelineService) {
  const { catalogue } = svc;
  return {
    pipelines: guard(ctx, (_args: unknown, c: GqlContext) =>
      catalogue.pipelines.map((p) => gqlPipeline(catalogue, p, c.user)),
    ),
    pipeline: guard(ctx, (args: { id: string }, c: GqlContext) => {
      const p = catalogue.pipeline(Number(args.id));
      return p ? gqlPipeline(catalogue, p, c.user) : null;
    }),
    execution: guard(ctx, (args: { id: string }, c: GqlContext) => {
      const id = Number(args.id);
      if (!Number.isSafeInteger(id) || accessTo(ctx.db, 'execution', id, c.user) === null) return null;
      return gqlExecution(ctx, getExecution(ctx.db, id)!, c.user);
    }),
    runPipeline: guard(ctx, (args: RunPipelineArgs, c: GqlContext) => {
      countRun(c);
      if (!args.input) throw errors.validation({ input: 'required' });
      const row = createRun(
        ctx,
        catalogue,
        svc.queue.capacity,
        c.user,
        intId(args.input.pipelineVersionId, 'pipelineVersionId'),
        runInput(args.input),
      );
      svc.queue.kick();
      return gqlExecution(ctx, row, c.user);
    }),
    cancelExecution: guard(ctx, (args: { id: string }, c: GqlContext) => {
      const id = intId(args.id, 'id');
      requireAccess(ctx.db, 'execution', id, c.user, 'edit');
      if (!svc.queue.cancel(id, c.user)) throw new ApiError('NOT_CANCELLABLE', 'The execution has already finished');
      return svc.queue.settled(id).then(() => gqlExecution(ctx, getExecution(ctx.db, id)!, c.user));
    }),
    rerunExecution: guard(
      ctx,
      (
        args: { id: string; input?: Omit<NonNullable<RunPipelineArgs['input']>, 'pipelineVersionId'> | null },
        c: GqlContext,
      ) => {
        countRun(c);
        const { upstream_execution: _upstream, ...input } = runInput({ pipelineVersionId: '0', ...(args.input ?? {}) });
        const row = rerunExecution(ctx, catalogue, svc.queue, c.user, intId(args.id, 'id'), input);
        return gqlExecution(ctx, row, c.user);
      },
    ),
    resumeExecution: guard(ctx, (args: { id: string }, c: GqlContext) => {
      countRun(c);
      const row = resumeExecution(ctx, catalogue, svc.queue, svc.events, c.user, intId(args.id, 'id'));
      return gqlExecution(ctx, row, c.user);
    }),
    executionUpdates: guard(ctx, (args: { id: string }, c: GqlContext) => {
      const id = intId(args.id, 'id');
      // Permission is checked on subscribe; an invisible execution is NOT_FOUND, as in REST.
      requireAccess(ctx.db, 'execution', id, c.user, 'view');
      return updatesOf(ctx, svc, id, (event) => {
        const user = c.recheck(event);
        onceForEvent(event, user.id, () => requireAccess(ctx.db, 'execution', id, user, 'view'));
      });
    }),
    reauthenticate: async (args: { token: string }, c: GqlContext) => {
      try {
        if (!c.reauthenticate) {
          throw errors.validation({ token: 'only a WebSocket connection re-authenticates' }, 'Not a WebSocket');
        }
        const { expiresAt } = await c.reauthenticate(args.token);
        return { expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString() };
      } catch (err) {
        if (!(err instanceof ApiError)) ctx.log(`INTERNAL graphql: ${(err as Error)?.stack ?? String(err)}`);
        throw toGraphQLError(err);
      }
    },
  };
}
