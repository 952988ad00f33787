/**
 * The composition root of the desktop core, built by hand: it creates the core services in
 * order, wires the desktop API handlers to them and stops them in reverse order. It runs under
 * plain Node (browser mode, CLI, tests) and inside Electron's main process alike.
 */
import { APP_VERSION } from '../../shared/version';
import { createDispatcher, type Dispatcher } from './dispatcher';
import { ServiceSupervisor, type ServiceLauncher } from './service-supervisor';

export interface DesktopCoreOptions {
  /** The embedded service's data folder. */
  serviceDataDir: string;
  /** The desktop core's own state folder (queue database, settings). */
  stateDir: string;
  launcher: ServiceLauncher;
  shell: 'electron' | 'browser';
  servicePort?: number;
  log?: (msg: string) => void;
}

export interface DesktopCore {
  dispatcher: Dispatcher;
  supervisor: ServiceSupervisor;
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
  });
  const dispatcher = createDispatcher(
    {
      'app:version': () => ({ version: APP_VERSION, shell: options.shell, platform: process.platform }),
      'service:status': () => supervisor.getStatus(),
    },
    log,
  );
  supervisor.onStatus((status) => dispatcher.emit('service:status-changed', status));

  return {
    dispatcher,
    supervisor,
    async start() {
      await supervisor.start();
    },
    async stop() {
      await supervisor.stop();
    },
  };
}
