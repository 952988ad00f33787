/**
 * Launches the embedded service in an Electron utilityProcess so that SQLite and pipeline work
 * never share the window's event loop; what it shares with the Node child launcher (arguments,
 * environment, the `{event: "listening"}` handshake) comes from the core.
 */
import { utilityProcess } from 'electron';
import { followService, serviceEntryArgs, serviceEntryEnv, type ServiceLauncher } from '../core/index';

export function utilityServiceLauncher(entry: string): ServiceLauncher {
  return {
    launch(where) {
      const child = utilityProcess.fork(entry, serviceEntryArgs(where), {
        stdio: ['ignore', 'pipe', 'inherit'],
        serviceName: 'Laneway service',
        env: serviceEntryEnv(),
      });
      return followService(child, async (exited) => {
        if (child.pid === undefined) return;
        child.kill();
        await exited;
      });
    },
  };
}
