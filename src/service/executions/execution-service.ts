/**
 * The pipelines area's long-lived parts: the catalogue, the execution event bus and the
 * execution queue. The composition root builds them once; REST routes, GraphQL and the weblog
 * route all use this one object through `ctx.parts.pipelines`.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { ExecutionEvents } from './execution-events';
import { ExecutionQueue } from './execution-queue';
import { failInterrupted } from './recovery';
import { watchExecutionEnds } from './execution-ended';
import { defaultManifestDir, loadCatalogue, type Catalogue } from '../pipelines/catalogue';

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

/** Loads the catalogue and builds the event bus and the queue (nothing runs yet). */
export function createPipelineService(
  app: FastifyInstance,
  ctx: ServiceContext,
  dir = defaultManifestDir(),
): PipelineService {
  const catalogue = loadCatalogue(ctx.db, dir, ctx.config.dataDir);
  for (const p of catalogue.problems) ctx.log(`pipeline manifest skipped: ${p.file}: ${p.errors.join('; ')}`);
  for (const note of catalogue.notes) ctx.log(`pipeline catalogue: ${note}`);
  const events = new ExecutionEvents();
  const queue = new ExecutionQueue({ ctx, catalogue, events, serviceUrl: () => listeningUrl(app, ctx) });
  ctx.onClose(() => queue.close());
  return { catalogue, events, queue };
}

/**
 * Starts the pipelines part once the rest of the service is built: owners are told of ends
 * (before recovery, so that runs a crash interrupted are reported too), interrupted runs are
 * failed, and queued executions of a previous run start once the service listens.
 */
export function startPipelineService(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  watchExecutionEnds(ctx, svc.events);
  failInterrupted(ctx, svc.events);
  app.addHook('onListen', async () => svc.queue.kick());
}
