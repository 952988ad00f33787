/**
 * Starts the embedded service out of the core's event loop and keeps it alive: a child
 * process under Node, a utilityProcess under Electron (the launcher is injected), restarted
 * with exponential backoff when it dies, stopped cleanly on shutdown.
 */
import { createServer } from 'node:net';
import type { ServiceStatus } from '../../shared/desktop-api/contract';

/** A started service process, as the supervisor sees it. */
export interface ServiceProcess {
  /** Resolves with the service's URL once it listens; rejects if it dies first. */
  readonly listening: Promise<string>;
  /** Resolves when the process has exited, with its code. */
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface ServiceLauncher {
  launch(args: { dataDir: string; port: number }): ServiceProcess;
}

export interface SupervisorOptions {
  dataDir: string;
  port?: number;
  launcher: ServiceLauncher;
  now?: () => Date;
  /** Backoff before restart attempt n (0-based), in ms. */
  backoff?: (attempt: number) => number;
  sleep?: (ms: number) => Promise<void>;
  fetchVersion?: (url: string) => Promise<string | null>;
  /** Whether a loopback port can be bound now (the restart reuses the previous one when it can). */
  portFree?: (port: number) => Promise<boolean>;
  /** Told of each restart after a crash (the service log's supervisor line). */
  onRestart?: (info: { previousUrl: string | null; url: string; exitCode: number | null; attempt: number }) => void;
}

/** Binds and releases a loopback port: free if that works. */
export function loopbackPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export type StatusListener = (status: ServiceStatus) => void;

const defaultBackoff = (attempt: number) => Math.min(30_000, 500 * 2 ** attempt);

export class ServiceSupervisor {
  private status: ServiceStatus;
  private current: ServiceProcess | null = null;
  private stopping = false;
  private attempt = 0;
  /** The port of the last service that listened: a restart takes it again when free. */
  private lastPort: number | null = null;
  private readonly listeners = new Set<StatusListener>();

  constructor(private readonly options: SupervisorOptions) {
    this.status = { mode: 'embedded', state: 'stopped', url: null, version: null, error: null, since: this.stamp() };
  }

  /** The latest status. */
  getStatus(): ServiceStatus {
    return this.status;
  }

  /** Subscribes to status changes; returns the unsubscribe function. */
  onStatus(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the service and resolves once it listens (or rejects if the first start fails). */
  async start(): Promise<ServiceStatus> {
    this.stopping = false;
    await this.spawnOnce('starting');
    return this.status;
  }

  /** Stops the service and waits for the process to exit. */
  async stop(): Promise<void> {
    this.stopping = true;
    const proc = this.current;
    this.current = null;
    if (proc) await proc.stop();
    this.set({ state: 'stopped', url: null, error: null });
  }

  private async spawnOnce(state: 'starting' | 'restarting', port = this.options.port ?? 0): Promise<string> {
    this.set({ state, error: null });
    const proc = this.options.launcher.launch({ dataDir: this.options.dataDir, port });
    this.current = proc;
    void proc.exited.then((code) => this.onExit(proc, code));
    const url = await proc.listening;
    const version = this.options.fetchVersion ? await this.options.fetchVersion(url).catch(() => null) : null;
    this.attempt = 0;
    this.lastPort = Number(new URL(url).port) || null;
    this.set({ state: 'running', url, version, error: null });
    return url;
  }

  /**
   * The port for a restart: the configured one, else the previous one while it is free (so a
   * screen, a browser tab or a script holding the old address keeps working), else any.
   */
  private async restartPort(): Promise<number> {
    if (this.options.port) return this.options.port;
    if (!this.lastPort) return 0;
    const free = await (this.options.portFree ?? loopbackPortFree)(this.lastPort).catch(() => false);
    return free ? this.lastPort : 0;
  }

  private async onExit(proc: ServiceProcess, code: number | null): Promise<void> {
    if (this.stopping || this.current !== proc) return;
    this.current = null;
    const previousUrl = this.status.url;
    this.set({ state: 'crashed', url: null, error: `The local service exited (code ${code ?? 'signal'})` });
    const attempt = this.attempt++;
    const wait = (this.options.backoff ?? defaultBackoff)(attempt);
    await (this.options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms).unref?.())))(wait);
    if (this.stopping) return;
    try {
      const url = await this.spawnOnce('restarting', await this.restartPort());
      this.options.onRestart?.({ previousUrl, url, exitCode: code, attempt: attempt + 1 });
    } catch (err) {
      this.set({ state: 'crashed', error: (err as Error).message });
    }
  }

  private set(patch: Partial<ServiceStatus>): void {
    this.status = { ...this.status, ...patch, since: this.stamp() };
    for (const l of this.listeners) l(this.status);
  }

  private stamp(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
}
