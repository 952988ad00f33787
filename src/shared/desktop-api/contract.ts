/**
 * The desktop API: every method the renderer may call on the desktop core and every event
 * the core pushes. Main, preload and renderer all import this one module; channel names are
 * `domain:verb`. The schemas are TypeBox (JSON Schema); the core's dispatcher checks every
 * payload against them (payload-check.ts). Add a method here, then its handler in src/main/core/core-handlers.ts.
 */
import { Type, type Static, type TSchema } from 'typebox';
import type { METHOD_NAMES } from './method-names';
import { closed, nullable } from './payload-types';
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

const empty = closed({});

export const serviceStatus = closed({
  mode: Type.Enum(['embedded', 'remote']),
  state: Type.Enum(['stopped', 'starting', 'running', 'restarting', 'crashed', 'unreachable']),
  url: nullable(Type.String()),
  version: nullable(Type.String()),
  error: nullable(Type.String()),
  since: Type.String(),
});
export type ServiceStatus = Static<typeof serviceStatus>;

export const appInfo = closed({
  version: Type.String(),
  shell: Type.Enum(['electron', 'browser']),
  platform: Type.String(),
  /** Where this computer keeps the embedded service's data and the app's own state (Settings shows them). */
  data_dir: Type.Optional(Type.String()),
  state_dir: Type.Optional(Type.String()),
});
export type AppInfo = Static<typeof appInfo>;

interface MethodSpec {
  params: TSchema;
  result: TSchema;
}
function method<P extends TSchema, R extends TSchema>(params: P, result: R): { params: P; result: R } {
  return { params, result };
}

const ok = closed({ ok: Type.Literal(true) });
const runIdParams = closed({ id: Type.Integer() });
/**
 * A run's upload by hand; `sample_metadata` (Organism, Category) is asked once for the whole
 * run's sheet and fills only what its samples lack (the sheet's own columns win).
 */
const runUploadParams = closed({
  id: Type.Integer(),
  sample_metadata: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 200 }))),
});

export const methods = {
  'app:version': method(empty, appInfo),
  'service:status': method(empty, serviceStatus),
  /** Restarts the embedded service (remote profiles: probes the URL again). */
  'service:restart': method(empty, serviceStatus),
  /**
   * A GET of the service API through the core's own client: how the renderer reads a Flow
   * server, whose wire the core translates (docs/flow-client.md); any JSON answer.
   */
  'service:read': method(
    closed({ path: Type.String({ minLength: 5, maxLength: 2000, pattern: '^/api/' }) }),
    Type.Unknown(),
  ),
  /**
   * A change (POST, PUT, DELETE with a JSON body) through the core's own client: how a Flow
   * profile's screens launch a pipeline (docs/flow-client.md); the answer's JSON.
   */
  'service:send': method(
    closed({
      method: Type.Enum(['POST', 'PUT', 'PATCH', 'DELETE']),
      path: Type.String({ minLength: 5, maxLength: 2000, pattern: '^/api/' }),
      body: Type.Optional(Type.Unknown()),
    }),
    Type.Unknown(),
  ),
  /** A binary GET's bytes through the core (a Flow profile's downloads, the lane template), base64, at most 256 MiB. */
  'service:download': method(
    closed({ path: Type.String({ minLength: 5, maxLength: 2000, pattern: '^/api/' }) }),
    closed({ filename: Type.String(), base64: Type.String() }),
  ),

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
  'watchers:remove': method(closed({ id: Type.Integer() }), ok),
  /** Reconciles the folder now instead of waiting for the periodic scan. */
  'watchers:rescan': method(closed({ id: Type.Integer() }), watcher),
  /** Electron's folder picker; `path` is null when cancelled. Browser mode answers BAD_REQUEST (no picker). */
  'watchers:pick-folder': method(empty, closed({ path: nullable(Type.String()) })),

  'runs:list': method(runListParams, runList),
  'runs:get': method(runIdParams, run),
  /** Uploads a ready run whose watcher has auto-upload off (or retries a failed one). */
  'runs:upload': method(runUploadParams, run),
  /** Hides a run from the list; its folder is never touched. */
  'runs:dismiss': method(runIdParams, ok),

  /** Turns dropped files and folders into a proposal the user edits; uploads nothing. */
  'ingest:propose': method(proposeParams, proposal),
  /** Enqueues an (edited) proposal. */
  'ingest:confirm': method(confirmParams, confirmResult),
} as const satisfies Record<(typeof METHOD_NAMES)[number], MethodSpec>;

export const events = {
  'service:status-changed': serviceStatus,
  /**
   * The embedded service came back after a crash (on its previous port when that was free, else
   * another): the renderer asks for the address and a token again and re-sends what failed.
   */
  'service:restarted': serviceStatus,
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
// Every name in METHOD_NAMES has a method above (`satisfies`), and every method is named there:
const _everyMethodNamed: MethodName extends (typeof METHOD_NAMES)[number] ? true : never = true;
export type EventName = keyof typeof events;
export type MethodParams<M extends MethodName> = Static<(typeof methods)[M]['params']>;
export type MethodResult<M extends MethodName> = Static<(typeof methods)[M]['result']>;
export type EventPayload<E extends EventName> = Static<(typeof events)[E]>;

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}
