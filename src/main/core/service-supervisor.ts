/**
 * Starts the embedded service out of the core's event loop and keeps it alive: a child
 * process under Node, a utilityProcess under Electron (the launcher is injected), restarted
 * with exponential backoff when it dies, stopped cleanly on shutdown.
 */
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
}

export type StatusListener = (status: ServiceStatus) => void;

const defaultBackoff = (attempt: number) => Math.min(30_000, 500 * 2 ** attempt);

export class ServiceSupervisor {
  private status: ServiceStatus;
  private current: ServiceProcess | null = null;
  private stopping = false;
  private attempt = 0;
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

  private async spawnOnce(state: 'starting' | 'restarting'): Promise<void> {
    this.set({ state, error: null });
    const proc = this.options.launcher.launch({ dataDir: this.options.dataDir, port: this.options.port ?? 0 });
    this.current = proc;
    void proc.exited.then((code) => this.onExit(proc, code));
    const url = await proc.listening;
    const version = this.options.fetchVersion ? await this.options.fetchVersion(url).catch(() => null) : null;
    this.attempt = 0;
    this.set({ state: 'running', url, version, error: null });
  }

  private async onExit(proc: ServiceProcess, code: number | null): Promise<void> {
    if (this.stopping || this.current !== proc) return;
    this.current = null;
    this.set({ state: 'crashed', url: null, error: `The local service exited (code ${code ?? 'signal'})` });
    const wait = (this.options.backoff ?? defaultBackoff)(this.attempt++);
    await (this.options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms).unref?.())))(wait);
    if (this.stopping) return;
    try {
      await this.spawnOnce('restarting');
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
