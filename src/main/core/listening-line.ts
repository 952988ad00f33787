/**
 * The service's start-up handshake: in --json mode it prints one line
 * `{"event":"listening","url":...}` on stdout once it listens. Both launchers (a Node child
 * process, an Electron utilityProcess) read it here.
 */
import { createInterface } from 'node:readline';

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
