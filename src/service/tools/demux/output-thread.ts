/**
 * The demultiplexer's output thread, as the parsing side holds it. It is started at the lane's
 * first read (demultiplexer.ts), and it takes the files only once it has said it is ready: the
 * parser never waits on a thread that is still starting. A thread that fails while it holds no
 * file is simply not used.
 */
import { statSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { startBundledThread } from '../../../node/bundled-thread';
import { isGzipFile } from './fastq-reader';
import { nativeModule } from './native-module';
import type { OutputReply, OutputRequest } from './output-thread-messages';

export class OutputThread {
  private readonly worker: Worker;
  ready = false;
  /** Set once the thread failed or stopped. */
  failure: Error | null = null;
  private listener: ((msg: OutputReply) => void) | null = null;
  private waiters: Array<() => void> = [];
  private stopped = false;

  constructor() {
    // Loaded here first, so that the thread finds the native module wherever its bundle runs.
    nativeModule();
    this.worker = startBundledThread(import.meta.url, './demux-output-thread');
    this.worker.on('message', (msg: OutputReply) => {
      if (msg.type === 'ready') this.ready = true;
      else this.listener?.(msg);
      this.notify();
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => {
      if (!this.stopped) this.fail(new Error(`The demultiplexer's output thread stopped (exit code ${code})`));
    });
    // Until a lane uses it, it must not keep the process alive (a refused lane just ends). After
    // the listeners: on Node 20 a 'message' listener added later refs the thread's port again.
    this.worker.unref();
  }

  /** The sink's handler for the thread's replies (after 'ready'). */
  listen(listener: (msg: OutputReply) => void): void {
    this.listener = listener;
    this.worker.ref();
  }

  post(msg: OutputRequest, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(msg, transfer);
  }

  /** Resolves once the thread is ready, or has failed. */
  async started(): Promise<void> {
    while (!this.ready && !this.failure) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.listener?.({ type: 'error', message: err.message });
    this.notify();
  }

  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Stops the thread (it holds no file, or has closed them). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.worker.terminate();
  }
}

/** The lane's input bytes, gzip counted as about four times its size. */
export function laneBytes(files: Array<string | undefined>): number {
  let bytes = 0;
  for (const f of files) {
    if (f) bytes += statSync(f).size * (isGzipFile(f) ? 4 : 1);
  }
  return bytes;
}
