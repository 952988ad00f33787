/**
 * Launches the embedded service in an Electron utilityProcess so that SQLite and pipeline work
 * never share the window's event loop. It speaks the same `{event: "listening"}` line on stdout
 * as the Node child process does.
 */
import { utilityProcess } from 'electron';
import { createInterface } from 'node:readline';
import type { ServiceLauncher, ServiceProcess } from '../core/service-supervisor';

export function utilityServiceLauncher(entry: string): ServiceLauncher {
  return {
    launch({ dataDir, port }): ServiceProcess {
      const child = utilityProcess.fork(entry, ['--data', dataDir, '--port', String(port), '--json'], {
        stdio: ['ignore', 'pipe', 'inherit'],
        serviceName: 'Laneway service',
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const listening = new Promise<string>((resolve, reject) => {
        if (child.stdout) {
          createInterface({ input: child.stdout }).on('line', (line) => {
            try {
              const msg = JSON.parse(line) as { event?: string; url?: string };
              if (msg.event === 'listening' && msg.url) resolve(msg.url);
            } catch {
              // not a protocol line
            }
          });
        }
        void exited.then((code) => reject(new Error(`The local service exited before listening (code ${code})`)));
      });
      return {
        listening,
        exited,
        async stop() {
          if (child.pid === undefined) return;
          child.kill();
          await exited;
        },
      };
    },
  };
}
