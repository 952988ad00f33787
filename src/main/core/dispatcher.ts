/**
 * The one dispatcher of the desktop API: looks a channel up in the contract, parses the
 * payload against its schema, runs the handler and answers with data (never a throw). Both
 * transports (Electron IPC, browser-mode WebSocket) call this and nothing else.
 */
import type { WireResult } from '../../shared/desktop-api/client';
import {
  events,
  isMethodName,
  methods,
  type EventName,
  type EventPayload,
  type MethodName,
  type MethodParams,
  type MethodResult,
} from '../../shared/desktop-api/contract';
import type { DesktopErrorData } from '../../shared/errors';
import { compiledCheck } from '../../shared/compiled-check';
import { checkPayload, PayloadError } from '../../shared/desktop-api/payload-check';

/** A handler for every method of the contract: what the full desktop core wires. */
export type AllHandlers = {
  [M in MethodName]: (params: MethodParams<M>) => Promise<MethodResult<M>> | MethodResult<M>;
};
/** Handlers as the dispatcher takes them: reduced cores and tests wire only some. */
export type Handlers = Partial<AllHandlers>;

/** An error a handler throws on purpose: it crosses to the renderer as its data. */
export class DesktopFailure extends Error {
  constructor(readonly data: DesktopErrorData) {
    super(data.message);
  }
}

export interface Dispatcher {
  dispatch(channel: unknown, params: unknown): Promise<WireResult<unknown>>;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  subscribe(listener: (event: EventName, payload: unknown) => void): () => void;
}

/**
 * Creates the dispatcher. Handlers may be partial (tests and reduced cores wire only what they
 * need); a contract method without a handler answers UNKNOWN_METHOD as data.
 */
export function createDispatcher(handlers: Handlers, log: (msg: string) => void = () => {}): Dispatcher {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  // Events are checked by TypeBox's compiled check (shared/compiled-check.ts): the walking
  // check cost 0.1 to 0.2 ms an event, 0.8 s of the core's 13 s with 2,000 samples queued at
  // once (each file and sample reports every change of state, issue 21). The walking check
  // still names the problem of a payload the compiled one refuses.
  const checkEvent = (event: EventName, payload: unknown) =>
    compiledCheck(events[event])(payload) ? payload : checkPayload(events[event], payload);
  return {
    async dispatch(channel, raw) {
      if (!isMethodName(channel)) {
        return {
          ok: false,
          error: { code: 'UNKNOWN_METHOD', message: `No desktop method ${String(channel)}`, retryable: false },
        };
      }
      let params: unknown;
      try {
        params = checkPayload(methods[channel].params, raw ?? {});
      } catch (err) {
        if (err instanceof PayloadError) {
          return { ok: false, error: { code: 'BAD_REQUEST', message: err.message, retryable: false } };
        }
        throw err;
      }
      try {
        const handler = handlers[channel] as ((p: unknown) => unknown) | undefined;
        if (!handler) {
          return {
            ok: false,
            error: { code: 'UNKNOWN_METHOD', message: `${channel} is not available in this core`, retryable: false },
          };
        }
        return { ok: true, value: await handler(params) };
      } catch (err) {
        if (err instanceof DesktopFailure) return { ok: false, error: err.data };
        log(`desktop method ${channel} failed: ${(err as Error)?.stack ?? String(err)}`);
        return {
          ok: false,
          error: { code: 'DESKTOP_INTERNAL', message: (err as Error)?.message ?? 'Internal error', retryable: false },
        };
      }
    },
    emit(event, payload) {
      const checked = checkEvent(event, payload);
      for (const l of listeners) l(event, checked);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
