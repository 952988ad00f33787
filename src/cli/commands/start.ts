/**
 * `laneway start`: the app. The Electron desktop app where Electron can run; elsewhere one line
 * says why, and the same UI runs in browser mode (desktop core and embedded service headless,
 * the UI on 127.0.0.1 with a per-launch token).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  childServiceLauncher,
  createDesktopCore,
  defaultUserDataDir,
  probeElectron,
  serviceDataDir,
  startBrowserHost,
} from '../../main/core/index';
import { serviceLogPath } from '../../service/service-log';
import { UsageError, untilSignal, type Command } from './command';

/** The project's out/ folder: beside the package.json above this module (the source file or its bundle in out/cli/BUILD/). */
function outDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'out', sep);
}
const OUT_DIR = outDir();

function openInBrowser(url: string): void {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return;
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}

export const startCommand: Command = {
  help: [
    'Starts the desktop app with the embedded local service.',
    '',
    '  --browser      browser mode even where Electron could run',
    '  --no-open      print the URL but do not open a browser',
    '  --port P       port of the browser-mode UI (default: a free one)',
    "  --home DIR     the app's user data folder                 [LANEWAY_HOME]",
    "  --data DIR     the embedded service's data folder (default HOME/service)",
    '  --json         print {"event":"ready","url":...} (for scripts and tests)',
  ].join('\n'),
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        browser: { type: 'boolean', default: false },
        'no-open': { type: 'boolean', default: false },
        port: { type: 'string', default: '0' },
        home: { type: 'string' },
        data: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535`);
    const home = values.home ?? defaultUserDataDir();
    const dataDir = values.data ?? serviceDataDir(home);

    if (!values.browser) {
      const probe = probeElectron();
      if (probe.ok && existsSync(`${OUT_DIR}main/index.js`)) {
        const child = spawn(probe.binary, [OUT_DIR], { stdio: 'inherit', env: { ...process.env, LANEWAY_HOME: home } });
        return await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
      }
      const reason = probe.ok ? 'the app is not built (run npm run build)' : probe.reason;
      process.stderr.write(`Electron cannot run here (${reason}): starting Laneway in browser mode.\n`);
    }

    const rendererDir = `${OUT_DIR}renderer`;
    if (!existsSync(`${rendererDir}/index.html`)) throw new Error('The UI is not built: run `npm run build` first');
    const stop = untilSignal();
    const core = createDesktopCore({
      serviceDataDir: dataDir,
      stateDir: home,
      launcher: childServiceLauncher(),
      shell: 'browser',
    });
    await core.start();
    const host = await startBrowserHost({ rendererDir, dispatcher: core.dispatcher, port, csp: core.rendererCsp });
    if (values.json)
      process.stdout.write(
        `${JSON.stringify({ event: 'ready', url: host.url, service: core.supervisor.getStatus().url })}\n`,
      );
    else
      process.stdout.write(
        [
          `Laneway is running at ${host.url}`,
          "(the link carries this launch's access token; press Ctrl+C to stop)",
          `Embedded service: ${core.supervisor.getStatus().url ?? 'not started'} (data: ${dataDir}, log: ${serviceLogPath(dataDir)})`,
          '',
        ].join('\n'),
      );
    if (!values['no-open']) openInBrowser(host.url);
    const signal = await stop;
    process.stderr.write(`${signal}: stopping Laneway\n`);
    await host.close();
    await core.stop();
    return 0;
  },
};
