/**
 * What both service launchers share (a Node child process for browser mode, the CLI and tests;
 * an Electron utilityProcess for the desktop app): the entry's arguments and environment, and
 * following the process to its start-up handshake and its exit. In --json mode the service
 * prints one line `{"event":"listening","url":...}` on stdout once it listens.
 */
import { createInterface } from 'node:readline';
import { parentWatchEnv } from '../../node/parent-watch';
import type { ServiceProcess } from './service-supervisor';

/** The arguments every launcher gives the service's entry. */
export function serviceEntryArgs({ dataDir, port }: { dataDir: string; port: number }): string[] {
  return ['--data', dataDir, '--port', String(port), '--json'];
}

/** The service's environment: this process's, and the watch that ends the service with its parent. */
export function serviceEntryEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra, ...parentWatchEnv() };
}

/** Resolves with the URL the service announces; rejects if the process exits first. */
export function listeningUrl(stdout: NodeJS.ReadableStream | null, exited: Promise<number | null>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    if (stdout) {
      createInterface({ input: stdout }).on('line', (line) => {
        try {
          const msg = JSON.parse(line) as { event?: string; url?: string };
          if (msg.event === 'listening' && msg.url) resolve(msg.url);
        } catch {
          // Not a protocol line; the service prints nothing else on stdout in --json mode.
        }
      });
    }
    void exited.then((code) => reject(new Error(`The local service exited before listening (code ${code})`)));
  });
}

/** A launched service process, followed to its handshake and exit; `stop` ends it given its exit. */
export function followService(
  child: {
    stdout: NodeJS.ReadableStream | null;
    once(event: 'exit', listener: (code: number | null) => void): unknown;
  },
  stop: (exited: Promise<number | null>) => Promise<void>,
): ServiceProcess {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { listening: listeningUrl(child.stdout, exited), exited, stop: () => stop(exited) };
}
