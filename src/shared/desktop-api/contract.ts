/**
 * The desktop API: every method the renderer may call on the desktop core and every event
 * the core pushes. Main, preload and renderer all import this one module; channel names are
 * `domain:verb`. Add a method here, then its handler in src/main/core/handlers.
 */
import { s, type Infer, type Schema } from '../schema';

const empty = s.object({});

export const serviceStatus = s.object({
  mode: s.enum(['embedded', 'remote'] as const),
  state: s.enum(['stopped', 'starting', 'running', 'restarting', 'crashed', 'unreachable'] as const),
  url: s.nullable(s.string()),
  version: s.nullable(s.string()),
  error: s.nullable(s.string()),
  since: s.string(),
});
export type ServiceStatus = Infer<typeof serviceStatus>;

export const appInfo = s.object({
  version: s.string(),
  shell: s.enum(['electron', 'browser'] as const),
  platform: s.string(),
});
export type AppInfo = Infer<typeof appInfo>;

interface MethodSpec<P, R> {
  params: Schema<P>;
  result: Schema<R>;
}
function method<P, R>(params: Schema<P>, result: Schema<R>): MethodSpec<P, R> {
  return { params, result };
}

export const methods = {
  'app:version': method(empty, appInfo),
  'service:status': method(empty, serviceStatus),
} as const;

export const events = {
  'service:status-changed': serviceStatus,
} as const;

export type MethodName = keyof typeof methods;
export type EventName = keyof typeof events;
export type MethodParams<M extends MethodName> = Infer<(typeof methods)[M]['params']>;
export type MethodResult<M extends MethodName> = Infer<(typeof methods)[M]['result']>;
export type EventPayload<E extends EventName> = Infer<(typeof events)[E]>;

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}
