/**
 * The pipelines area's services, built once at start: the catalogue, the execution event bus
 * and the execution queue. REST routes, GraphQL and the weblog route all use this one object.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { setActionCatalogue } from '../executions/execution-actions';
import { ExecutionEvents } from '../executions/execution-events';
import { ExecutionQueue } from '../executions/execution-queue';
import { failInterrupted } from '../executions/recovery';
import { watchExecutionEnds } from '../notifications/execution-ended';
import { defaultManifestDir, loadCatalogue, type Catalogue } from './catalogue';

export interface PipelineService {
  catalogue: Catalogue;
  events: ExecutionEvents;
  queue: ExecutionQueue;
}

function listeningUrl(app: FastifyInstance, ctx: ServiceContext): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl.replace(/\/$/, '');
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : ctx.config.port;
  const host = ['0.0.0.0', '::'].includes(ctx.config.host) ? '127.0.0.1' : ctx.config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

const services = new WeakMap<ServiceContext, PipelineService>();

/**
 * The pipelines area's services of this service instance, created at the first call: the
 * catalogue, REST, GraphQL and the weblog route share them.
 */
export function pipelineService(app: FastifyInstance, ctx: ServiceContext): PipelineService {
  let svc = services.get(ctx);
  if (!svc) services.set(ctx, (svc = createPipelineService(app, ctx)));
  return svc;
}

/** Loads the catalogue, recovers interrupted executions and starts the queue. */
export function createPipelineService(
  app: FastifyInstance,
  ctx: ServiceContext,
  dir = defaultManifestDir(),
): PipelineService {
  const catalogue = loadCatalogue(ctx.db, dir, ctx.config.dataDir);
  setActionCatalogue(ctx, catalogue);
  for (const p of catalogue.problems) ctx.log(`pipeline manifest skipped: ${p.file}: ${p.errors.join('; ')}`);
  for (const note of catalogue.notes) ctx.log(`pipeline catalogue: ${note}`);
  const events = new ExecutionEvents();
  // Before recovery, so that runs a crash interrupted are reported too.
  watchExecutionEnds(ctx, events);
  const queue = new ExecutionQueue({ ctx, catalogue, events, serviceUrl: () => listeningUrl(app, ctx) });
  failInterrupted(ctx, events);
  // Queued executions of a previous run start once the service listens.
  app.addHook('onListen', async () => queue.kick());
  ctx.onClose(() => queue.close());
  return { catalogue, events, queue };
}
