/**
 * The desktop API: every method the renderer may call on the desktop core and every event
 * the core pushes. Main, preload and renderer all import this one module; channel names are
 * `domain:verb`. Add a method here, then its handler in src/main/core/core-handlers.ts.
 */
import { s, type Infer, type Schema } from '../schema';
import {
  accessToken,
  addProfileParams,
  authStatus,
  loginParams,
  me,
  profileIdParams,
  profileList,
  profile,
  setupParams,
} from './auth-schemas';
import {
  enqueueFilesParams,
  enqueueLaneParams,
  enqueueResult,
  enqueueSampleParams,
  jobIdParams,
  progressEvent,
  setPriorityParams,
  uploadGroup,
  uploadJob,
  uploadList,
  uploadSettings,
} from './upload-schemas';
import { serviceNotice } from './notification-schemas';
import {
  addWatcherParams,
  confirmParams,
  confirmResult,
  proposal,
  proposeParams,
  run,
  runList,
  runListParams,
  updateWatcherParams,
  watcher,
  watcherEvent,
  watcherList,
} from './watcher-schemas';

export * from './auth-schemas';
export * from './notification-schemas';
export * from './upload-schemas';
export * from './watcher-schemas';

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

const ok = s.object({ ok: s.literal(true) });
const runIdParams = s.object({ id: s.number({ int: true }) });

export const methods = {
  'app:version': method(empty, appInfo),
  'service:status': method(empty, serviceStatus),
  /** Restarts the embedded service (remote profiles: probes the URL again). */
  'service:restart': method(empty, serviceStatus),

  'auth:status': method(empty, authStatus),
  'auth:login': method(loginParams, authStatus),
  'auth:logout': method(empty, authStatus),
  /** Creates the service's first account (only while none exists), then signs in as it. */
  'auth:setup': method(setupParams, authStatus),
  'auth:me': method(empty, me),
  /** A valid access token for the renderer's own HTTP calls; NOT_SIGNED_IN when signed out. */
  'auth:access-token': method(empty, accessToken),

  'profiles:list': method(empty, profileList),
  'profiles:add': method(addProfileParams, profile),
  'profiles:switch': method(profileIdParams, profileList),
  'profiles:remove': method(profileIdParams, profileList),

  'uploads:list': method(empty, uploadList),
  'uploads:enqueue-files': method(enqueueFilesParams, enqueueResult),
  'uploads:enqueue-sample': method(enqueueSampleParams, enqueueResult),
  'uploads:enqueue-lane': method(enqueueLaneParams, enqueueResult),
  'uploads:pause': method(jobIdParams, uploadJob),
  'uploads:resume': method(jobIdParams, uploadJob),
  'uploads:cancel': method(jobIdParams, uploadJob),
  'uploads:retry': method(jobIdParams, uploadJob),
  'uploads:set-priority': method(setPriorityParams, uploadJob),
  'uploads:pause-all': method(empty, uploadList),
  'uploads:resume-all': method(empty, uploadList),
  'uploads:cancel-all': method(empty, uploadList),
  'uploads:retry-all': method(empty, uploadList),
  /** Forgets completed and cancelled jobs (the hash index keeps deduplicating). */
  'uploads:clear-finished': method(empty, uploadList),
  'uploads:get-settings': method(empty, uploadSettings),
  'uploads:set-settings': method(uploadSettings, uploadSettings),

  'watchers:list': method(empty, watcherList),
  'watchers:add': method(addWatcherParams, watcher),
  'watchers:update': method(updateWatcherParams, watcher),
  'watchers:remove': method(s.object({ id: s.number({ int: true }) }), ok),
  /** Reconciles the folder now instead of waiting for the periodic scan. */
  'watchers:rescan': method(s.object({ id: s.number({ int: true }) }), watcher),
  /** Electron's folder picker; `path` is null when cancelled. Browser mode answers BAD_REQUEST (no picker). */
  'watchers:pick-folder': method(empty, s.object({ path: s.nullable(s.string()) })),

  'runs:list': method(runListParams, runList),
  'runs:get': method(runIdParams, run),
  /** Uploads a ready run whose watcher has auto-upload off (or retries a failed one). */
  'runs:upload': method(runIdParams, run),
  /** Hides a run from the list; its folder is never touched. */
  'runs:dismiss': method(runIdParams, ok),

  /** Turns dropped files and folders into a proposal the user edits; uploads nothing. */
  'ingest:propose': method(proposeParams, proposal),
  /** Enqueues an (edited) proposal. */
  'ingest:confirm': method(confirmParams, confirmResult),
} as const;

export const events = {
  'service:status-changed': serviceStatus,
  'auth:changed': authStatus,
  'profiles:changed': profileList,
  /** Throttled (a few per second): every running job's bytes, speed and ETA, and the total. */
  'uploads:progress': progressEvent,
  /** A job changed state (queued, completed, failed ...). */
  'uploads:job-changed': uploadJob,
  'uploads:group-changed': uploadGroup,
  'watchers:changed': watcher,
  'watchers:event': watcherEvent,
  'runs:changed': run,
  /**
   * A new notification for the signed-in user (an execution ended...): the Electron shell shows
   * it as a native notification, browser mode as a Web Notification where permitted or a toast.
   */
  'notifications:new': serviceNotice,
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
