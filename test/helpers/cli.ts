/**
 * Runs the real `laneway` command as a child process and reads its JSON protocol lines. It is the
 * user's `laneway`: src/cli/laneway.mjs, which runs the built bundle in out/cli (made by the test
 * suite's global setup, and checked against its sources at every start), not the TypeScript.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const LANEWAY_BIN = fileURLToPath(new URL('../../src/cli/laneway.mjs', import.meta.url));

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  stdout: () => string;
  /** Resolves with the first stdout line that parses as JSON with the given event (a bound, not a timing: a loaded two-core machine starts the service in 20 s or more). */
  waitForEvent<T = Record<string, unknown>>(event: string, timeoutMs?: number): Promise<T>;
  /** Resolves with the first stdout line matching `pattern`; rejects when the process exits first. */
  waitForLine(pattern: RegExp): Promise<RegExpExecArray>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, [LANEWAY_BIN, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const events: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  const lineWaiters: Array<(line: string) => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    out += `${line}\n`;
    for (const w of [...lineWaiters]) w(line);
    try {
      events.push(JSON.parse(line) as Record<string, unknown>);
      for (const w of waiters.splice(0)) w();
    } catch {
      // plain output line
    }
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stderr: () => err,
    stdout: () => out,
    exit,
    waitForLine(pattern: RegExp) {
      return new Promise<RegExpExecArray>((resolve, reject) => {
        const already = out
          .split('\n')
          .map((l) => pattern.exec(l))
          .find((m) => m);
        if (already) return resolve(already);
        const onLine = (line: string) => {
          const m = pattern.exec(line);
          if (!m) return;
          lineWaiters.splice(lineWaiters.indexOf(onLine), 1);
          resolve(m);
        };
        lineWaiters.push(onLine);
        void exit.then(({ code }) =>
          reject(new Error(`laneway exited (${code}) before a line ${pattern}; stderr:\n${err}`)),
        );
      });
    },
    waitForEvent<T>(event: string, timeoutMs = 60_000) {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no "${event}" event in ${timeoutMs} ms; stderr:\n${err}`)),
          timeoutMs,
        );
        const check = () => {
          const found = events.find((e) => e.event === event);
          if (found) {
            clearTimeout(timer);
            resolve(found as T);
            return;
          }
          waiters.push(check);
        };
        void exit.then(({ code }) => {
          clearTimeout(timer);
          reject(new Error(`laneway exited (${code}) before "${event}"; stderr:\n${err}`));
        });
        check();
      });
    },
  };
}

/** Runs a CLI command to completion. */
export async function runCliToEnd(args: string[], env: Record<string, string> = {}, input?: string) {
  const p = runCli(args, env);
  if (input !== undefined) p.child.stdin.end(input);
  else p.child.stdin.end();
  const { code } = await p.exit;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}
