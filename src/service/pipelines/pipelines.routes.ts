/**
 * Pipeline catalogue routes: the list (a bare array), one pipeline, one version. Running a
 * version is the executions area's (`executions/run.routes.ts`): the catalogue sits below it.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../http/api-error';
import { requireUser } from '../auth/authenticate';
import type { Catalogue } from './catalogue';
import { presentPipeline, presentVersion } from './pipeline-presenter';
import { getPipelines, getPipelinesById, getPipelinesVersionsById } from '../../shared/service-api/endpoints/pipelines';
import { serve } from '../http/serve-endpoint';

/** Registers the catalogue routes. */
export function pipelinesRoutes(app: FastifyInstance, catalogue: Catalogue): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  serve(api, getPipelines, async (request) => {
    const user = requireUser(request);
    return catalogue.pipelines.map((p) => presentPipeline(catalogue, p, user));
  });

  serve(api, getPipelinesById, async (request) => {
    const user = requireUser(request);
    const p = catalogue.pipeline(request.params.id);
    if (!p) throw errors.notFound('Pipeline');
    return presentPipeline(catalogue, p, user);
  });

  serve(api, getPipelinesVersionsById, async (request) => {
    const user = requireUser(request);
    const found = catalogue.version(request.params.id);
    if (!found) throw errors.notFound('Pipeline version');
    return presentVersion(found.pipeline, found.version, user);
  });
}
