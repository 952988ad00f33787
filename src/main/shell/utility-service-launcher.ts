/**
 * Launches the embedded service in an Electron utilityProcess so that SQLite and pipeline work
 * never share the window's event loop. It speaks the same `{event: "listening"}` line on stdout
 * as the Node child process does.
 */
import { utilityProcess } from 'electron';
import { listeningUrl, parentWatchEnv, type ServiceLauncher, type ServiceProcess } from '../core/index';

export function utilityServiceLauncher(entry: string): ServiceLauncher {
  return {
    launch({ dataDir, port }): ServiceProcess {
      const child = utilityProcess.fork(entry, ['--data', dataDir, '--port', String(port), '--json'], {
        stdio: ['ignore', 'pipe', 'inherit'],
        serviceName: 'Laneway service',
        env: { ...process.env, ...parentWatchEnv() },
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const listening = listeningUrl(child.stdout, exited);
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
