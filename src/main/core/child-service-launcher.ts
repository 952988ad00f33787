/**
 * Launches the embedded service as a Node child process (browser mode, CLI, tests); what it
 * shares with the Electron launcher is in service-process.ts.
 */
import { spawn } from 'node:child_process';
import { nodeEntry } from '../../node/node-entry';
import type { ServiceLauncher } from './service-supervisor';
import { followService, serviceEntryArgs, serviceEntryEnv } from './service-process';

export function childServiceLauncher(extraArgs: string[] = []): ServiceLauncher {
  return {
    launch(where) {
      const cmd = nodeEntry(import.meta.url, '../../service/entry', [...serviceEntryArgs(where), ...extraArgs]);
      const child = spawn(cmd.execPath, cmd.args, {
        env: serviceEntryEnv(cmd.env),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      return followService(child, async (exited) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      });
    },
  };
}
