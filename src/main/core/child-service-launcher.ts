/**
 * Launches the embedded service as a Node child process (browser mode, CLI, tests). The
 * service prints one JSON line `{event: "listening", url}` on stdout when ready.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { nodeEntry } from '../../node/node-entry';
import type { ServiceLauncher, ServiceProcess } from './service-supervisor';

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
        env: { ...process.env, ...cmd.env },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const listening = new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: child.stdout });
        lines.on('line', (line) => {
          try {
            const msg = JSON.parse(line) as { event?: string; url?: string };
            if (msg.event === 'listening' && msg.url) resolve(msg.url);
          } catch {
            // Not a protocol line; the service prints nothing else on stdout in --json mode.
          }
        });
        void exited.then((code) => reject(new Error(`The local service exited before listening (code ${code})`)));
      });
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
