/**
 * Builds and starts the embedded service: one data folder, one SQLite file, one HTTP origin.
 * The same program is the remote service when started with a host other than 127.0.0.1.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { MAX_JSON_BODY_BYTES } from '../shared/limits';
import { systemClock, type Clock, type ServiceConfig, type ServiceContext, type StoreContext } from './context';
import { openDatabase } from './db/database';
import { installCors } from './http/cors';
import { ApiError } from './http/api-error';
import { installErrorHandling, toApiError } from './http/error-handler';
import { installJsonBodyParser } from './http/json-body';
import { buildOpenApi, collectRoutes } from './http/openapi';
import { installValidation } from './http/validation';
import { serve } from './http/serve-endpoint';
import { getOpenApi } from '../shared/service-api/endpoints/meta';
import { modules } from './modules';
import { composeService, serviceHooks } from './services';
import type { ServiceLogFn } from './service-log';

export interface RunningService {
  url: string;
  app: FastifyInstance;
  ctx: ServiceContext;
  close(): Promise<void>;
}

export interface StartOptions extends Partial<ServiceConfig> {
  dataDir: string;
  clock?: Clock;
  log?: ServiceLogFn;
  /** Sees every route as it is registered (the architecture test compares them to the descriptors). */
  onRoute?: (route: RouteOptions) => void;
}

/** Creates the service without listening (tests may use inject); call start() to listen. */
export async function createService(options: StartOptions): Promise<{ app: FastifyInstance; ctx: ServiceContext }> {
  const config: ServiceConfig = {
    dataDir: options.dataDir,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    smtpUrl: options.smtpUrl ?? null,
    publicUrl: options.publicUrl ?? null,
  };
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const db = openDatabase(join(config.dataDir, 'laneway.sqlite'));
  const closers: Array<() => Promise<void> | void> = [];
  const log = options.log ?? ((message: string) => process.stderr.write(`[service] ${message}\n`));
  const base: StoreContext = {
    db,
    hooks: serviceHooks(),
    config,
    clock: options.clock ?? systemClock,
    log,
    onClose: (closer) => closers.push(closer),
  };

  const app = Fastify({
    logger: false,
    bodyLimit: MAX_JSON_BODY_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: false,
    return503OnClosing: true,
    // A request Node's parser refuses (a malformed request line or header, headers too large)
    // still answers with the spec's error body rather than a bare 400.
    clientErrorHandler: (error, socket) => {
      const body = JSON.stringify({
        error: `Malformed HTTP request: ${(error as { code?: string }).code ?? error.message}`,
        code: 'VALIDATION_ERROR',
        status: 400,
      });
      // Once anything was written on this connection (an answer to the request whose body the
      // parser then refused), a second answer would corrupt the stream: close it instead.
      if (socket.writable && socket.bytesWritten === 0) {
        socket.end(
          'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      } else socket.destroy();
    },
    // Errors the router raises before any hook (broken percent-encoding and the like) still
    // answer with the spec's error body.
    frameworkErrors: (error, _request, reply) => {
      const apiError =
        toApiError(error) ?? new ApiError('VALIDATION_ERROR', `Malformed request: ${error.message}`, { fields: {} });
      void (reply as unknown as { status(n: number): { send(b: unknown): void } })
        .status(apiError.status)
        .send(apiError.toBody());
    },
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  const ctx = composeService(app, base);
  installValidation(app);
  installJsonBodyParser(app, MAX_JSON_BODY_BYTES);
  installErrorHandling(app, log);
  installCors(app);
  const routes = collectRoutes(app);
  for (const mod of modules) await mod.register(app, ctx);
  serve(app, getOpenApi, async (request) => buildOpenApi(routes, `${request.protocol}://${request.host}`));
  app.addHook('onClose', async () => {
    for (const closer of closers.reverse()) await closer();
    db.close();
  });
  return { app, ctx };
}

/**
 * Stops listening, lets requests in flight finish, and closes keep-alive connections as soon as
 * they fall idle (Node closes only those idle at the moment close starts, and fastify keeps
 * connections alive for 72 s), so that shutdown never waits on a client that went quiet.
 */
async function closeGracefully(app: FastifyInstance, hardLimitMs = 10_000): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  const hard = setTimeout(() => app.server.closeAllConnections(), hardLimitMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(hard);
  }
}

/** Creates the service and listens; resolves with its origin URL. */
export async function startService(options: StartOptions): Promise<RunningService> {
  const { app, ctx } = await createService(options);
  await app.listen({ host: ctx.config.host, port: ctx.config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : ctx.config.port;
  const host = ctx.config.host.includes(':') ? `[${ctx.config.host}]` : ctx.config.host;
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  return { url, app, ctx, close: () => closeGracefully(app) };
}
