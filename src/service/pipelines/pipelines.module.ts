/**
 * The pipelines module: the catalogue, executions, the engines and GraphQL. Registered after
 * identity (routes call requireUser) and after the data areas (outputs are data records).
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { executionsRoutes } from '../executions/executions.routes';
import { rerunResumeRoutes } from '../executions/rerun-resume.routes';
import { graphqlRoutes } from '../graphql/graphql.routes';
import { createPipelineService } from './pipeline-service';
import { pipelinesRoutes } from './pipelines.routes';

/** Registers the pipelines area. */
export function registerPipelines(app: FastifyInstance, ctx: ServiceContext): void {
  const svc = createPipelineService(app, ctx);
  pipelinesRoutes(app, ctx, svc);
  executionsRoutes(app, ctx, svc);
  rerunResumeRoutes(app, ctx, svc);
  graphqlRoutes(app, ctx, svc);
}
