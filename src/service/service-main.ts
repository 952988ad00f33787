/**
 * The service's process entry: `laneway serve` runs it in the foreground, and the desktop core
 * runs it as a child process (a utilityProcess under Electron). It prints one JSON line when
 * listening so that a supervisor can read the URL, and stops cleanly on SIGINT and SIGTERM.
 */
import { parseArgs } from 'node:util';
import { watchParent } from '../node/parent-watch';
import { startService } from './server';
import { APP_VERSION } from '../shared/version';
import { reachableUrls } from './reachable-address';
import { openServiceLog, serviceLogPath } from './service-log';
import { describePreviousStop, markStarted, markStopped } from './stop-marker';

/** Bad usage of the service's options (the CLI answers exit code 2). */
function usage(message: string): Error {
  const err = new Error(message);
  err.name = 'UsageError';
  return err;
}

/** Parses the service's own options: --port, --data, --host, --smtp, --public-url. */
export function parseServeArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: process.env.LANEWAY_PORT ?? '0' },
      data: { type: 'string', default: process.env.LANEWAY_DATA },
      host: { type: 'string', default: process.env.LANEWAY_HOST ?? '127.0.0.1' },
      smtp: { type: 'string', default: process.env.LANEWAY_SMTP_URL },
      'public-url': { type: 'string', default: process.env.LANEWAY_PUBLIC_URL },
      json: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usage(`--port must be 0-65535, got ${values.port}`);
  if (!values.data || values.data === '') throw usage('--data DIR is required (or LANEWAY_DATA)');
  return {
    port,
    dataDir: values.data,
    host: values.host!,
    smtpUrl: values.smtp ?? null,
    publicUrl: values['public-url'] ?? null,
    json: values.json!,
  };
}

/** Runs the service until SIGINT, SIGTERM or the supervising parent goes away; resolves 0. */
export async function serviceMain(argv: string[]): Promise<number> {
  const opts = parseServeArgs(argv);
  // Listen for signals before starting and for as long as the process lives: a signal during
  // start-up or a second one during shutdown must never fall through to the default (kill).
  const stop = stopRequest();
  const serviceLog = openServiceLog(opts.dataDir);
  // Marked before anything can fail or be killed, so that the next start knows how this one ended.
  const previous = markStarted(opts.dataDir, new Date(), { pid: process.pid, version: APP_VERSION });
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService({ ...opts, log: serviceLog.log });
  } catch (err) {
    // Not a crash: it never ran (the port taken, the folder unwritable); say so and why.
    const why = (err as Error).message;
    serviceLog.log(`could not start: ${why}`, {
      event: 'service.start-failed',
      level: 'error',
      data_dir: opts.dataDir,
    });
    markStopped(opts.dataDir, new Date(), `could not start: ${why}`);
    throw err;
  }
  // A wildcard host listens on every interface: print an address others can reach, not loopback.
  const urls = reachableUrls(opts.host, service.url);
  serviceLog.log(
    `Laneway ${APP_VERSION} started, listening on ${urls.join(', ')} (data: ${opts.dataDir}); ${describePreviousStop(previous)}`,
    {
      event: 'service.started',
      level: previous.kind === 'crash' ? 'warn' : 'info',
      version: APP_VERSION,
      pid: process.pid,
      data_dir: opts.dataDir,
      urls,
      previous_stop: previous,
    },
  );
  if (opts.json) process.stdout.write(`${JSON.stringify({ event: 'listening', url: service.url, urls })}\n`);
  else
    process.stdout.write(
      `Laneway service listening on ${urls[0]} (data: ${opts.dataDir}, log: ${serviceLogPath(opts.dataDir)})\n` +
        (urls.length > 1 ? `Also reachable at: ${urls.slice(1).join(', ')}\n` : ''),
    );
  const reason = await stop;
  serviceLog.log(`${reason}: stopping`, { event: 'service.stopping', reason });
  await service.close();
  markStopped(opts.dataDir, new Date(), reason);
  serviceLog.log(`stopped cleanly (${reason})`, { event: 'service.stopped', reason });
  await serviceLog.close();
  return 0;
}

/** Resolves with the first of SIGINT, SIGTERM or (under a supervisor) the parent going away. */
function stopRequest(): Promise<string> {
  return new Promise<string>((resolve) => {
    process.on('SIGINT', () => resolve('SIGINT'));
    process.on('SIGTERM', () => resolve('SIGTERM'));
    // A supervising parent that dies, however it dies, must not leave an orphan service
    // holding the database (only when started by one of ours: see parent-watch).
    watchParent((reason) => resolve(reason));
  });
}
