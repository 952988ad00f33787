/**
 * The real `laneway serve` as its own process on an ephemeral port. Some faults only show when
 * client and service do not share an event loop (timing of socket reads, a process that exits).
 */
import { join } from 'node:path';
import { runCli, type CliProcess } from './cli';
import { tempDir } from './temp';

export interface ServeProcess {
  url: string;
  port: number;
  dataDir: string;
  cli: CliProcess;
  /** SIGTERM, wait for the exit; the data folder is removed unless `keepData`. */
  stop(): Promise<void>;
}

export async function startServeProcess(
  options: { dataDir?: string; env?: Record<string, string>; keepData?: boolean } = {},
): Promise<ServeProcess> {
  const dir = options.dataDir ? null : tempDir('laneway-serve-');
  const dataDir = options.dataDir ?? join(dir!.path, 'data');
  const cli = runCli(['serve', '--port', '0', '--data', dataDir, '--json'], options.env);
  const { url } = await cli.waitForEvent<{ url: string }>('listening', 90_000);
  return {
    url,
    port: Number(new URL(url).port),
    dataDir,
    cli,
    async stop() {
      if (cli.child.exitCode === null && cli.child.signalCode === null) {
        cli.child.kill('SIGTERM');
        await cli.exit;
      }
      if (!options.keepData) dir?.remove();
    },
  };
}
