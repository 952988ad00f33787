/**
 * Builds the typed desktop API object (`laneway.service.status()`, `laneway.on(...)`) over any
 * transport that can invoke a channel and subscribe to an event. Used by the preload (over
 * IPC) and by the renderer in browser mode (over the WebSocket).
 */
import type { DesktopErrorData } from '../errors';
import type { EventName, EventPayload, MethodName, MethodParams, MethodResult } from './contract';
import { METHOD_NAMES } from './method-names';

/** What a transport answers for one call: errors arrive as data. */
export type WireResult<T> = { ok: true; value: T } | { ok: false; error: DesktopErrorData };

export interface DesktopTransport {
  invoke(channel: MethodName, params: unknown): Promise<WireResult<unknown>>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}

/** The error a renderer-side call rejects with, rebuilt from the wire data. */
export class DesktopError extends Error {
  readonly code: DesktopErrorData['code'];
  readonly retryable: boolean;
  readonly details: unknown;
  constructor(data: DesktopErrorData) {
    super(data.message);
    this.name = 'DesktopError';
    this.code = data.code;
    this.retryable = data.retryable;
    this.details = data.details;
  }
}

type Split<C extends string> = C extends `${infer D}:${infer V}` ? [D, V] : never;
type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
type Domains = Split<MethodName>[0];

export type DesktopApi = {
  [D in Domains]: {
    [M in MethodName as Split<M>[0] extends D ? Camel<Split<M>[1]> : never]: (
      ...args: keyof MethodParams<M> extends never ? [params?: MethodParams<M>] : [params: MethodParams<M>]
    ) => Promise<MethodResult<M>>;
  };
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

function camel(verb: string): string {
  return verb.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Creates the API object; every method exists because the contract lists it. */
export function createDesktopApi(transport: DesktopTransport): DesktopApi {
  const api: Record<string, unknown> = {};
  for (const channel of METHOD_NAMES) {
    const [domain, verb] = channel.split(':') as [string, string];
    const group = (api[domain] ??= {}) as Record<string, unknown>;
    group[camel(verb)] = async (params: unknown = {}) => {
      const result = await transport.invoke(channel, params);
      if (!result.ok) throw new DesktopError(result.error);
      return result.value;
    };
  }
  api.on = (event: EventName, listener: (payload: unknown) => void) => transport.subscribe(event, listener);
  return api as DesktopApi;
}
