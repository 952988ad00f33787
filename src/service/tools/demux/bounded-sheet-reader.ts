/**
 * Reads users' annotation sheets off the event loop: one long-lived worker thread parses them
 * one at a time, with a heap bound and a time bound on top of the readers' own bounds on bytes,
 * rows, columns, cells and shared strings. A parse past its time, or one that exhausts the
 * thread's heap, ends the thread (the next parse starts a new one) and is refused by the bound
 * it exceeded, while the service goes on answering. The thread ends itself after a quiet spell.
 * The composition root builds the one parser (`ctx.parts.sheetParser`) and closes it on
 * shutdown: the thread ends and sheets still waiting are refused.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../../node/start-thread';
import { formatCount, TABLE_LIMITS, TableReadError, type TableLimits } from '../../../shared/sheets/table-limits';
import type { LanePlanOptions, ParsedSheet, ParseReply, ParseRequest } from './sheet-parse-messages';

/** Heap of the parsing thread: several times what the largest sheet within the bounds needs. */
export const PARSE_HEAP_MB = 256;
/** A thread with nothing to parse for this long ends, giving its memory back. */
const IDLE_MS = 30_000;

interface Job {
  req: Omit<ParseRequest, 'id'>;
  resolve(result: ParsedSheet): void;
  reject(err: Error): void;
}

export class SheetParser {
  private worker: Worker | null = null;
  private ready = false;
  private active: (Job & { id: number; timer: NodeJS.Timeout }) | null = null;
  private readonly queue: Job[] = [];
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;
  private closed = false;

  /**
   * Reads an annotation sheet file in the sheet-parsing thread, and with `plan` checks and plans
   * it as a lane's sheet there too; refuses with TableReadError (row, column and the bound
   * exceeded, when one was).
   */
  read(
    path: string,
    filename: string,
    limits: Partial<TableLimits> = {},
    plan?: LanePlanOptions,
  ): Promise<ParsedSheet> {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error('The service is stopping: the sheet was not read'));
        return;
      }
      this.queue.push({ req: { path, filename, limits, plan }, resolve, reject });
      this.pump();
    });
  }

  private start(): Worker {
    const worker = startThread(import.meta.url, './sheet-parse-thread', { maxOldGenerationSizeMb: PARSE_HEAP_MB });
    this.worker = worker;
    this.ready = false;
    worker.on('message', (msg: ParseReply) => {
      if ('ready' in msg) {
        this.ready = true;
        this.pump();
        return;
      }
      const job = this.active;
      if (!job || job.id !== msg.id) return;
      clearTimeout(job.timer);
      this.active = null;
      if (msg.ok) job.resolve(msg.result);
      else if (msg.error.internal) {
        // A reader fault on odd input is still the input's problem to the user: never a
        // library's TypeError as the message, never a 500; the fault is kept as the cause.
        job.reject(
          new TableReadError('The sheet cannot be read: it is damaged, or written in a way this reader does not know'),
        );
      } else job.reject(new TableReadError(msg.error.message, msg.error.row, msg.error.column, msg.error.limit));
      this.pump();
    });
    const gone = (err?: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const job = this.active;
      this.active = null;
      if (job) {
        clearTimeout(job.timer);
        const oom = (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        job.reject(
          oom
            ? new TableReadError(
                `Reading the sheet needs more than ${PARSE_HEAP_MB} MB of memory (the limit); split it or remove unused cells`,
              )
            : new Error(`The sheet-parsing thread stopped: ${err?.message ?? 'exited'}`),
        );
      }
      this.pump();
    };
    worker.on('error', gone);
    worker.on('exit', () => gone());
    return worker;
  }

  private pump(): void {
    if (this.active) return;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const job = this.queue[0];
    if (!job) {
      // Nothing to do: let the process exit without waiting for the thread, and end it soon.
      this.worker?.unref();
      const worker = this.worker;
      if (worker) this.idle = setTimeout(() => this.stop(worker), IDLE_MS).unref();
      return;
    }
    const worker = this.worker ?? this.start();
    worker.ref();
    if (!this.ready) return;
    this.queue.shift();
    const id = this.nextId++;
    const maxMillis = job.req.limits.maxMillis ?? TABLE_LIMITS.maxMillis;
    // The time bound starts when the thread has the sheet, not while it waits in the queue.
    const timer = setTimeout(() => {
      if (this.active?.id !== id) return;
      this.active = null;
      this.stop(worker);
      job.reject(
        new TableReadError(
          `Reading and checking the sheet took longer than ${formatCount(maxMillis / 1000)} s (the limit); split it or remove unused cells`,
          0,
          '',
          'maxMillis',
        ),
      );
      this.pump();
    }, maxMillis);
    this.active = { ...job, id, timer };
    worker.postMessage({ id, ...job.req } satisfies ParseRequest);
  }

  /** Whether a thread is running now (it starts at the first sheet and ends when quiet). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Ends the thread and refuses what is still waiting; the service's shutdown calls it. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const stopping = new Error('The service is stopping: the sheet was not read');
    for (const job of this.queue.splice(0)) job.reject(stopping);
    const job = this.active;
    this.active = null;
    if (job) {
      clearTimeout(job.timer);
      job.reject(stopping);
    }
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private stop(worker: Worker): void {
    if (this.worker === worker) this.worker = null;
    void worker.terminate();
  }
}
