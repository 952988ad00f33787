/**
 * Runs one engine command as a detached process group, line by line: stdout and stderr lines
 * go to the callbacks, extra pipes (fd 3) to their own. An abort kills the whole group; the
 * promise settles only once the leader has exited and its group is gone.
 */
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { EngineSink } from './engine';
import { groupAlive, killGroup, spawnGroup } from './process-tree';

export interface ChildRunOptions {
  command: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
  signal: AbortSignal;
  sink: EngineSink;
  onStdout?(line: string): void;
  onStderr?(line: string): void;
  /** Lines written by the child on fd 3 (structured events, apart from tool output). */
  onEvents?(line: string): void;
}

function lines(stream: Readable | null | undefined, fn: ((line: string) => void) | undefined): Promise<void> {
  if (!stream) return Promise.resolve();
  if (!fn) {
    stream.resume();
    return new Promise((r) => stream.once('close', r));
  }
  return new Promise((resolve) => {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', fn).once('close', resolve);
  });
}

/** Resolves with the exit code (signals count as 128 + n); rejects with the abort reason. */
export async function runChild(o: ChildRunOptions): Promise<number> {
  if (o.signal.aborted) throw o.signal.reason;
  const child = spawnGroup(o.command, o.args, {
    cwd: o.cwd,
    env: { ...process.env, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe', o.onEvents ? 'pipe' : 'ignore'],
  });
  const pgid = child.pid;
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, sig) => resolve(code ?? 128 + (sig ? osSignal(sig) : 0)));
  });
  if (pgid === undefined) return exited;
  o.sink.spawned(pgid);
  const onAbort = () => void killGroup(pgid);
  o.signal.addEventListener('abort', onAbort, { once: true });
  const streams = Promise.all([
    lines(child.stdout, o.onStdout),
    lines(child.stderr, o.onStderr),
    lines(child.stdio[3] as Readable | null, o.onEvents),
  ]);
  let code: number;
  try {
    code = await exited;
    await streams;
  } finally {
    o.signal.removeEventListener('abort', onAbort);
    // Descendants that outlive their leader (a tool left running) belong to the run: end them.
    if (groupAlive(pgid)) await killGroup(pgid, 500);
  }
  if (o.signal.aborted) throw o.signal.reason;
  return code;
}

function osSignal(sig: NodeJS.Signals): number {
  const table: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return table[sig] ?? 0;
}
