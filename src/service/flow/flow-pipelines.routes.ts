/** Flow's pipeline reads and POST /pipelines/versions/{id}/run. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { createRun } from '../executions/run-command';
import type { PipelineService } from '../executions/execution-service';
import { flowUser } from './flow-auth';
import { flowNotFound } from './flow-errors';
import { flowExecutionDetail } from './flow-execution.presenter';
import { flowSchema } from './flow-openapi';
import { flowCategories, flowPipeline, flowVersion } from './flow-pipeline.presenter';
import { runInputOf } from './flow-run';
import { FlowAnyArray, FlowAnyObject, FlowExecution, FlowIdParams, FlowRunBody } from './flow.schemas';

export function flowPipelineRoutes(scope: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { catalogue } = svc;
  app.get(
    `/pipelines`,
    { schema: flowSchema({ summary: 'Pipeline categories with their pipelines', response: { 200: FlowAnyArray } }) },
    async (request) => (flowUser(request), flowCategories(catalogue)),
  );
  app.get(
    `/pipelines/:id`,
    {
      schema: flowSchema({
        summary: 'One pipeline with its versions, newest first',
        params: FlowIdParams,
        response: { 200: FlowAnyObject },
      }),
    },
    async (request) => {
      flowUser(request);
      const p = catalogue.pipeline(Number(request.params.id));
      if (!p) throw flowNotFound();
      return flowPipeline(p);
    },
  );
  app.get(
    `/pipelines/versions/:id`,
    {
      schema: flowSchema({
        summary: 'One pipeline version with its input schema',
        params: FlowIdParams,
        response: { 200: FlowAnyObject },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const found = catalogue.version(Number(request.params.id));
      if (!found) throw flowNotFound();
      return flowVersion(found.pipeline, found.version, user);
    },
  );
  app.post(
    `/pipelines/versions/:id/run`,
    {
      schema: flowSchema({
        summary: 'Run a version: {params, data_params, csv_params (rows naming samples), nextflow_version}',
        params: FlowIdParams,
        body: FlowRunBody,
        response: { 200: FlowExecution },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const versionId = Number(request.params.id);
      const found = catalogue.version(versionId);
      if (!found) throw flowNotFound();
      const row = createRun(
        ctx,
        catalogue,
        svc.queue.capacity,
        user,
        versionId,
        runInputOf(found.version, request.body),
      );
      svc.queue.kick();
      return flowExecutionDetail(ctx, row, user);
    },
  );
}
