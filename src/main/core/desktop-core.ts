/**
 * The composition root of the desktop core, built by hand: it creates the core services in
 * order, wires the desktop API handlers to them and stops them in reverse order (watchers
 * first, then the queue, the service, and the databases last). It runs under plain Node
 * (browser mode, CLI, tests) and inside Electron's main process alike.
 */
import { join } from 'node:path';
import { appendServiceLogLine } from '../../node/service-log-line';
import { APP_VERSION } from '../../shared/version';
import { rendererCsp } from './browser/csp';
import { coreHandlers } from './core-handlers';
import { createDispatcher, type AllHandlers, type Dispatcher } from './dispatcher';
import { NotificationWatcher } from './notifications/notification-watcher';
import { RunStore } from './runs/run-store';
import { ServiceSupervisor, type ServiceLauncher } from './service-supervisor';
import { openPlainFileStore } from './session/file-token-store';
import { openKeytarStore } from './session/keytar-token-store';
import { ProfileStore } from './session/profiles';
import { SessionManager } from './session/session-manager';
import { chooseTokenStore, type TokenStore } from './session/token-store';
import { flowUploadIntents } from './uploads/flow-intents';
import { JobStore } from './uploads/job-store';
import { openQueueDb } from './uploads/queue-db';
import { UploadQueue } from './uploads/upload-queue';
import { WatcherService } from './watchers/watcher-service';

export interface DesktopCoreOptions {
  /** The embedded service's data folder. */
  serviceDataDir: string;
  /** The desktop core's own state folder (queue database, profiles, settings). */
  stateDir: string;
  launcher: ServiceLauncher;
  shell: 'electron' | 'browser';
  servicePort?: number;
  /** Token stores to try after the keychain (the Electron shell adds safeStorage). */
  extraTokenStores?: ReadonlyArray<{ name: string; open: () => Promise<TokenStore> }>;
  /** The shell's folder picker (Electron's dialog); browser mode has none. */
  pickFolder?: () => Promise<string | null>;
  /** Skip the OS keychain (tests of the fallback). */
  noKeychain?: boolean;
  log?: (msg: string) => void;
}

export interface DesktopCore {
  dispatcher: Dispatcher;
  supervisor: ServiceSupervisor;
  /** Available after start(). */
  sessions: SessionManager | null;
  queue: UploadQueue | null;
  watchers: WatcherService | null;
  /** The renderer's Content-Security-Policy now: loopback and every remote profile's origin. */
  rendererCsp(): string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function fetchVersion(url: string): Promise<string | null> {
  const res = await fetch(`${url}/api/health`);
  if (!res.ok) return null;
  const body = (await res.json()) as { version?: string };
  return body.version ?? null;
}

export function createDesktopCore(options: DesktopCoreOptions): DesktopCore {
  const log = options.log ?? ((msg: string) => process.stderr.write(`[core] ${msg}\n`));
  const supervisor = new ServiceSupervisor({
    dataDir: options.serviceDataDir,
    port: options.servicePort,
    launcher: options.launcher,
    fetchVersion,
    onRestart: (info) => {
      appendServiceLogLine(options.serviceDataDir, 'supervisor.restarted', 'warn', {
        msg: `supervisor restarted the service after it exited (${info.exitCode ?? 'killed by a signal'}), now at ${info.url}`,
        previous_url: info.previousUrl,
        url: info.url,
        exit_code: info.exitCode,
        attempt: info.attempt,
      });
      dispatcher.emit('service:restarted', supervisor.getStatus());
    },
  });
  const handlers: Partial<AllHandlers> = {
    'app:version': () => ({
      version: APP_VERSION,
      shell: options.shell,
      platform: process.platform,
      data_dir: options.serviceDataDir,
      state_dir: options.stateDir,
    }),
    'service:status': () => supervisor.getStatus(),
    'service:restart': async () => {
      await supervisor.stop();
      return supervisor.start();
    },
  };
  const dispatcher = createDispatcher(handlers, log);
  supervisor.onStatus((status) => dispatcher.emit('service:status-changed', status));

  const core: DesktopCore = {
    dispatcher,
    supervisor,
    sessions: null,
    queue: null,
    watchers: null,
    // Read at each page load, so a remote profile added since is allowed after a reload.
    rendererCsp: () => {
      const profiles = (core.sessions?.profiles ?? new ProfileStore(options.stateDir)).list().profiles;
      return rendererCsp(profiles.flatMap((p) => (p.kind === 'remote' && p.url ? [p.url] : [])));
    },
    async start() {
      // The embedded service is the slowest part of starting: launch it first, so that it starts
      // while the queue database opens and the token store (a keychain probe) is chosen.
      const embeddedFirst = new ProfileStore(options.stateDir).active().kind === 'embedded';
      const serviceStarted = embeddedFirst ? supervisor.start() : null;
      serviceStarted?.catch(() => {}); // awaited below; a failure there is the caller's
      const db = openQueueDb(options.stateDir);
      closeDb = () => db.close();
      const tokenStore = await chooseTokenStore([
        ...(options.noKeychain ? [] : [{ name: 'keychain', open: () => openKeytarStore() }]),
        ...(options.extraTokenStores ?? []),
        { name: 'file', open: async () => openPlainFileStore(join(options.stateDir, 'tokens.json')) },
      ]);
      if (tokenStore.note) log(`token store: ${tokenStore.store.kind} (${tokenStore.note})`);
      const emit = dispatcher.emit.bind(dispatcher);
      const notices = new NotificationWatcher({ client: () => sessions.client(), emit, log });
      notifications = notices;
      const jobs = new JobStore(db);
      const sessions = new SessionManager({
        stateDir: options.stateDir,
        tokenStore,
        flowIntents: flowUploadIntents(jobs),
        embeddedUrl: () => (supervisor.getStatus().state === 'running' ? supervisor.getStatus().url : null),
        emit: (event, payload) => {
          emit(event, payload);
          // Jobs waiting for a sign-in start as soon as there is one.
          if (event === 'auth:changed') core.queue?.kick();
          // Another account or service: what counts as new starts again.
          if (event === 'auth:changed' || event === 'profiles:changed') notices.reset();
        },
      });
      let watchers: WatcherService | null = null;
      // Runs follow the queue once per turn of the event loop, however many of its events the
      // turn made: each follow reads every run, and a plate's upload made thousands of events.
      const followSoon = () => {
        following ??= setImmediate(() => {
          following = null;
          watchers?.followUploads();
        });
      };
      const queue = new UploadQueue({
        store: jobs,
        connection: () => {
          const client = sessions.client();
          return client ? { profileId: sessions.activeProfileId(), client } : null;
        },
        emit: (event, payload) => {
          emit(event, payload);
          if (event !== 'uploads:progress') followSoon();
        },
        log,
      });
      watchers = new WatcherService({ runs: new RunStore(db), queue, client: () => sessions.client(), emit, log });
      Object.assign(
        handlers,
        coreHandlers({ sessions, queue, watchers, pickFolder: options.pickFolder }, async () => {
          await queue.stop();
          if (sessions.profiles.active().kind === 'embedded' && supervisor.getStatus().state !== 'running')
            await supervisor.start();
          queue.start();
        }),
      );
      core.sessions = sessions;
      core.queue = queue;
      core.watchers = watchers;

      if (serviceStarted) await serviceStarted;
      else if (sessions.profiles.active().kind === 'embedded') await supervisor.start();
      // The embedded service may come back on another port after a crash: reschedule then.
      supervisor.onStatus((s) => s.state === 'running' && queue.kick());
      await sessions.init();
      queue.start();
      await watchers.start();
      notices.start();
    },
    async stop() {
      notifications?.stop();
      await core.watchers?.stop();
      await core.queue?.stop();
      // A follow still to come would read the runs of a closed database.
      if (following) clearImmediate(following);
      following = null;
      await supervisor.stop();
      await core.sessions?.close();
      closeDb();
    },
  };
  let closeDb = () => {};
  let following: NodeJS.Immediate | null = null;
  let notifications: NotificationWatcher | null = null;
  return core;
}
