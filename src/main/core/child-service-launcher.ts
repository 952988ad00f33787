/**
 * Launches the embedded service as a Node child process (browser mode, CLI, tests). The
 * service prints one JSON line `{event: "listening", url}` on stdout when ready.
 */
import { spawn } from 'node:child_process';
import { nodeEntry } from '../../node/node-entry';
import { parentWatchEnv } from '../../node/parent-watch';
import type { ServiceLauncher, ServiceProcess } from './service-supervisor';
import { listeningUrl } from './listening-line';

export function childServiceLauncher(extraArgs: string[] = []): ServiceLauncher {
  return {
    launch({ dataDir, port }): ServiceProcess {
      const cmd = nodeEntry(import.meta.url, '../../service/entry', [
        '--data',
        dataDir,
        '--port',
        String(port),
        '--json',
        ...extraArgs,
      ]);
      const child = spawn(cmd.execPath, cmd.args, {
        env: { ...process.env, ...cmd.env, ...parentWatchEnv() },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const listening = listeningUrl(child.stdout, exited);
      return {
        listening,
        exited,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await exited;
          clearTimeout(timer);
        },
      };
    },
  };
}
