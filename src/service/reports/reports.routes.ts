/**
 * MultiQC on demand: `POST /api/projects/{id}/multiqc` and `POST /api/lanes/{id}/multiqc`
 * (multiqc-on-demand.ts). A project needs view access; a lane is visible to its owner and the
 * members of its group. The report is the caller's data record (or the named group's).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  MultiqcReportParams,
  MultiqcReportRequest,
  MultiqcReportResponse,
  QcSummaryResponse,
} from '../../shared/service-api/reports';
import type { ServiceContext } from '../context';
import { presentData } from '../data/data.presenter';
import { errors } from '../http/api-error';
import { requireUser, type AuthUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import { projectById } from '../projects/projects.store';
import { buildMultiqcReport, type MultiqcScope } from './multiqc-on-demand';
import { executionQc } from '../executions/qc-summary';
import { samplesQc } from './project-qc';
import { laneSamples, projectSamples, visibleLaneName } from './reports.store';

export function reportsRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const schema = (what: 'project' | 'lane') => ({
    operationId: what === 'project' ? 'buildProjectMultiqc' : 'buildLaneMultiqc',
    summary: `Build a MultiQC report over the outputs of a ${what}'s samples`,
    description:
      `Runs MultiQC over the outputs of the completed executions on the ${what}'s samples (per pipeline and ` +
      'sample the newest one) that you may view: Laneway QC, samtools flagstat and markdup, bcftools stats. ' +
      'The report is stored as a data record of type multiqc (source report); download it at ' +
      '/api/data/{id}/download. 409 CONFLICT when multiqc is not installed or nothing it reads is there.',
    tags: ['reports'],
    params: MultiqcReportParams,
    body: MultiqcReportRequest,
    response: { 201: MultiqcReportResponse },
  });

  const answer = async (user: AuthUser, scope: MultiqcScope, body: MultiqcReportRequest | undefined) => {
    const result = await buildMultiqcReport(ctx, user, scope, {
      ...(body?.title !== undefined ? { title: body.title } : {}),
      ...(body?.group_owner !== undefined ? { groupOwner: body.group_owner } : {}),
    });
    return {
      data: presentData(ctx, result.record, user),
      download_url: `/api/data/${result.record.id}/download`,
      samples: result.samples,
      executions: result.executions,
      inputs: result.inputs,
    };
  };

  typed.post('/api/projects/:id/multiqc', { schema: schema('project') }, async (request, reply) => {
    const user = requireUser(request);
    const { id } = request.params;
    requireAccess(ctx.db, 'project', id, user, 'view');
    const project = projectById(ctx.db, id)!;
    const body = await answer(
      user,
      { kind: 'project', id, name: project.name, samples: projectSamples(ctx.db, id) },
      request.body,
    );
    return reply.code(201).send(body);
  });

  typed.post('/api/lanes/:id/multiqc', { schema: schema('lane') }, async (request, reply) => {
    const user = requireUser(request);
    const { id } = request.params;
    const name = visibleLaneName(ctx.db, id, user.id);
    if (name === undefined) throw errors.notFound('Lane');
    const body = await answer(user, { kind: 'lane', id, name, samples: laneSamples(ctx.db, id) }, request.body);
    return reply.code(201).send(body);
  });

  const qcSchema = (what: 'execution' | 'project') => ({
    operationId: what === 'execution' ? 'getExecutionQc' : 'getProjectQc',
    summary: `QC at a glance for a ${what}'s samples`,
    description:
      what === 'execution'
        ? "One row per sample from this execution's QC results (qc_json outputs) that you may read: reads, " +
          'share of Q30 bases, GC, adapter percent and the pass/warn/fail verdict per module.'
        : 'One row per sample of the project that you can see, from its newest completed QC run whose results you may read; a sample without one has null figures.',
    tags: ['reports'],
    params: MultiqcReportParams,
    response: { 200: QcSummaryResponse },
  });

  typed.get('/api/executions/:id/qc', { schema: qcSchema('execution') }, async (request) => {
    const user = requireUser(request);
    requireAccess(ctx.db, 'execution', request.params.id, user, 'view');
    return { samples: executionQc(ctx, user, request.params.id) };
  });

  typed.get('/api/projects/:id/qc', { schema: qcSchema('project') }, async (request) => {
    const user = requireUser(request);
    const { id } = request.params;
    requireAccess(ctx.db, 'project', id, user, 'view');
    return { samples: samplesQc(ctx, user, projectSamples(ctx.db, id)) };
  });
}
