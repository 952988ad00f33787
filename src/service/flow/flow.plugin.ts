/**
 * The Flow-compatible mount at /flow/api (FLOW-WIRE.md): Flow's official client, flowbio, and
 * its CLI work against Laneway with FLOW_API_URL=<service>/flow/api. One encapsulated fastify
 * scope with its own error bodies, authentication hook (Bearer or bare token), refresh cookie
 * and OpenAPI document; its routes translate Flow's wire to the same commands and stores as
 * /api and present the results in Flow's shapes. Nothing here changes /api.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import type { PipelineService } from '../executions/execution-service';
import { installFlowAuth } from './flow-auth';
import { flowAuthRoutes } from './flow-auth.routes';
import { FLOW_PREFIX } from './flow-cookie';
import { installFlowErrors } from './flow-errors';
import { flowExecutionRoutes } from './flow-executions.routes';
import { flowExtraRoutes } from './flow-extras.routes';
import { flowLookupRoutes } from './flow-lookups.routes';
import { buildFlowOpenApi, collectFlowRoutes, flowSchema } from './flow-openapi';
import { flowPipelineRoutes } from './flow-pipelines.routes';
import { flowProjectDataRoutes } from './flow-projects-data.routes';
import { flowSampleRoutes } from './flow-samples.routes';
import { flowUploadRoutes } from './flow-uploads.routes';
import { legacyGraphqlRoutes } from './legacy/legacy-graphql.routes';

/** Registers the mount. */
export async function flowMount(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): Promise<void> {
  await app.register(
    async (scope) => {
      const routes = collectFlowRoutes(scope);
      installFlowErrors(scope, ctx.log);
      installFlowAuth(scope, ctx);
      // Upload chunks are multipart bodies the routes stream themselves.
      scope.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
      flowAuthRoutes(scope, ctx);
      flowUploadRoutes(scope, ctx);
      flowLookupRoutes(scope, ctx);
      flowSampleRoutes(scope, ctx);
      flowProjectDataRoutes(scope, ctx);
      flowPipelineRoutes(scope, ctx, svc);
      flowExecutionRoutes(scope, ctx, svc);
      flowExtraRoutes(scope, ctx);
      legacyGraphqlRoutes(scope, ctx, svc);
      scope.get(
        `/openapi.json`,
        { schema: flowSchema({ summary: "This mount's OpenAPI document", security: [] }) },
        async (request) => buildFlowOpenApi(routes, `${request.protocol}://${request.host}`),
      );
      // Flow serves no public-archive import here: a clear 400, not a 404 that reads like a typo.
      const noImports = async () => ({ error: 'Importing public accessions is not supported by this service' });
      for (const url of [`/v2/sample-imports`, `/v2/sample-imports/:id`]) {
        scope.route({
          method: ['GET', 'POST'],
          url,
          schema: flowSchema({ summary: 'Importing public accessions: not supported (400)' }),
          handler: async (_request, reply) => reply.status(400).send(await noImports()),
        });
      }
    },
    { prefix: FLOW_PREFIX },
  );
}
