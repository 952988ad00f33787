/**
 * The desktop API handlers of the core's services. Failures cross as data: a service error
 * keeps its code, a refused path or bad state is BAD_REQUEST, anything else DESKTOP_INTERNAL.
 */
import { matchEndpoint, matchGet } from '../../shared/service-api/endpoint-match';
import type { AllHandlers } from './dispatcher';
import { DesktopFailure } from './dispatcher';
import { confirmProposal, enqueueData, enqueueLane, enqueueSamples } from './ingest/confirm';
import { markExisting } from './ingest/mark-existing';
import { propose } from './ingest/propose';
import { errorFromResponse, ServiceError } from '../../shared/service-client/service-error';
import type { SessionManager } from './session/session-manager';
import type { UploadQueue } from './uploads/upload-queue';
import type { WatcherService } from './watchers/watcher-service';

export interface CoreParts {
  sessions: SessionManager;
  queue: UploadQueue;
  watchers: WatcherService;
  /** The shell's folder picker (Electron's dialog); absent in browser mode. */
  pickFolder?: () => Promise<string | null>;
}

/** Rethrows an error as the data the renderer gets. */
function asFailure(err: unknown): never {
  if (err instanceof DesktopFailure) throw err;
  if (err instanceof ServiceError) throw new DesktopFailure(err.data);
  if (err instanceof Error && !(err instanceof TypeError) && !(err instanceof RangeError)) {
    throw new DesktopFailure({ code: 'BAD_REQUEST', message: err.message, retryable: false });
  }
  throw err;
}

function guard<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (err) {
      return asFailure(err);
    }
  };
}

/** The largest file `service:download` carries (base64 over the desktop link). */
const DOWNLOAD_LIMIT = 256 * 1024 * 1024;

type CoreHandlers = Omit<AllHandlers, 'app:version' | 'service:status' | 'service:restart'>;

/** Every auth, profile, upload, watcher, run and ingest handler. */
export function coreHandlers(
  { sessions, queue, watchers, pickFolder }: CoreParts,
  onProfileSwitch: () => Promise<void>,
): CoreHandlers {
  const activeClient = () => {
    const client = sessions.client();
    if (!client)
      throw new DesktopFailure({ code: 'SERVICE_UNAVAILABLE', message: 'The service is not running', retryable: true });
    return client;
  };
  return {
    'auth:status': () => sessions.statusNow(),
    'service:read': guard(async ({ path }) => {
      const client = activeClient();
      const read = matchGet(path);
      if (!read)
        throw new DesktopFailure({ code: 'NOT_FOUND', message: `No service read at ${path}`, retryable: false });
      return client.call(read.endpoint, { params: read.params, query: read.query } as never);
    }),
    'service:send': guard(async ({ method, path, body }) => {
      const client = activeClient();
      const change = matchEndpoint(method, path);
      if (!change)
        throw new DesktopFailure({ code: 'NOT_FOUND', message: `No service call ${method} ${path}`, retryable: false });
      const answer = await client.call(change.endpoint, {
        params: change.params,
        query: change.query,
        ...(body !== undefined ? { body } : {}),
      } as never);
      return answer === '' ? null : answer;
    }),
    'service:download': guard(async ({ path }) => {
      const client = activeClient();
      const read = matchGet(path);
      if (!read)
        throw new DesktopFailure({ code: 'NOT_FOUND', message: `No service read at ${path}`, retryable: false });
      const res = await client.send(read.endpoint, { params: read.params, query: read.query } as never);
      if (!res.ok) throw errorFromResponse(res.status, res.body);
      const bytes = Buffer.isBuffer(res.body) ? res.body : Buffer.from(res.body as unknown as Uint8Array);
      if (bytes.length > DOWNLOAD_LIMIT)
        throw new DesktopFailure({
          code: 'BAD_REQUEST',
          message: 'This file is too large to download through the app from this server',
          retryable: false,
        });
      const disposition = res.headers.get('content-disposition') ?? '';
      const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
      return {
        filename: named ? decodeURIComponent(named) : (path.split('/').at(-1) ?? 'download'),
        base64: bytes.toString('base64'),
      };
    }),
    'auth:login': guard((p) => sessions.login(p.username, p.password)),
    'auth:logout': guard(() => sessions.logout()),
    'auth:setup': guard((p) => sessions.setup(p)),
    'auth:me': guard(() => sessions.me()),
    'auth:access-token': guard(() => sessions.accessToken()),

    'profiles:list': () => sessions.listProfiles(),
    'profiles:add': guard(async (p) => {
      const added = await sessions.addProfile(p);
      if (p.activate) await onProfileSwitch();
      return added;
    }),
    'profiles:switch': guard(async (p) => {
      const list = await sessions.switchProfile(p.id);
      await onProfileSwitch();
      return list;
    }),
    'profiles:remove': guard(async (p) => {
      const wasActive = sessions.activeProfileId() === p.id;
      const list = await sessions.removeProfile(p.id);
      if (wasActive) await onProfileSwitch();
      return list;
    }),

    'uploads:list': () => queue.list(),
    'uploads:enqueue-files': guard((p) => enqueueData(queue, p.paths, p.priority)),
    'uploads:enqueue-sample': guard((p) => enqueueSamples(queue, [p], p.priority)),
    'uploads:enqueue-lane': guard((p) => enqueueLane(queue, p, p.priority)),
    'uploads:pause': guard((p) => queue.pause(p.id)),
    'uploads:resume': guard((p) => queue.resume(p.id)),
    'uploads:cancel': guard((p) => queue.cancel(p.id)),
    'uploads:retry': guard((p) => queue.retry(p.id)),
    'uploads:set-priority': guard((p) => queue.setPriority(p.id, p.priority)),
    'uploads:pause-all': () => queue.all('pause'),
    'uploads:resume-all': () => queue.all('resume'),
    'uploads:cancel-all': () => queue.all('cancel'),
    'uploads:retry-all': () => queue.all('retry'),
    'uploads:clear-finished': () => queue.clearFinished(),
    'uploads:get-settings': () => queue.getSettings(),
    'uploads:set-settings': (p) => queue.setSettings(p),

    'watchers:list': () => ({ watchers: watchers.list() }),
    'watchers:add': guard((p) => watchers.add(p)),
    'watchers:update': guard((p) => watchers.update(p)),
    'watchers:remove': guard((p) => {
      watchers.remove(p.id);
      return { ok: true as const };
    }),
    'watchers:rescan': guard((p) => watchers.rescan(p.id)),
    'watchers:pick-folder': guard(async () => {
      if (!pickFolder) throw new Error('This window has no folder picker (browser mode): type the folder path instead');
      return { path: await pickFolder() };
    }),

    'runs:list': (p) => ({ runs: watchers.runs(p.watcher_id) }),
    'runs:get': guard((p) => watchers.run(p.id)),
    'runs:upload': guard((p) => watchers.upload(p.id, p.sample_metadata)),
    'runs:dismiss': guard((p) => {
      watchers.dismiss(p.id);
      return { ok: true as const };
    }),

    'ingest:propose': guard(async (p) =>
      markExisting(await propose(p.paths, { includeFailed: p.include_failed ?? false }), queue),
    ),
    'ingest:confirm': guard((p) => confirmProposal(queue, p)),
  };
}
