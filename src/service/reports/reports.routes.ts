/**
 * MultiQC on demand: `POST /api/projects/{id}/multiqc` and `POST /api/lanes/{id}/multiqc`
 * (multiqc-on-demand.ts). A project needs view access; a lane is visible to its owner and the
 * members of its group. The report is the caller's data record (or the named group's).
 * QC at a glance: an execution's, a project's, and a list of samples' (the samples screen's read counts).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  buildLaneMultiqc,
  buildProjectMultiqc,
  getExecutionQc,
  getProjectQc,
  getSamplesQc,
} from '../../shared/service-api/endpoints/reports';
import type { MultiqcReportRequest } from '../../shared/service-api/reports';
import type { ServiceContext } from '../context';
import { presentData } from '../data/data.presenter';
import { errors } from '../http/api-error';
import { requireUser, type AuthUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import { serve } from '../http/serve-endpoint';
import { projectById } from '../projects/projects.store';
import { buildMultiqcReport, type MultiqcScope } from './multiqc-on-demand';
import { executionQc } from '../executions/qc-summary';
import { samplesQc } from './project-qc';
import { laneSamples, projectSamples, samplesByIds, visibleLaneName } from './reports.store';

export function reportsRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
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

  serve(typed, buildProjectMultiqc, async (request, reply) => {
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

  serve(typed, buildLaneMultiqc, async (request, reply) => {
    const user = requireUser(request);
    const { id } = request.params;
    const name = visibleLaneName(ctx.db, id, user.id);
    if (name === undefined) throw errors.notFound('Lane');
    const body = await answer(user, { kind: 'lane', id, name, samples: laneSamples(ctx.db, id) }, request.body);
    return reply.code(201).send(body);
  });

  serve(typed, getExecutionQc, async (request) => {
    const user = requireUser(request);
    requireAccess(ctx.db, 'execution', request.params.id, user, 'view');
    return { samples: executionQc(ctx, user, request.params.id) };
  });

  serve(typed, getProjectQc, async (request) => {
    const user = requireUser(request);
    const { id } = request.params;
    requireAccess(ctx.db, 'project', id, user, 'view');
    return { samples: samplesQc(ctx, user, projectSamples(ctx.db, id)) };
  });

  serve(typed, getSamplesQc, async (request) => {
    const user = requireUser(request);
    const ids = [...new Set((request.query.ids ?? '').split(',').filter(Boolean).map(Number))];
    return { samples: samplesQc(ctx, user, samplesByIds(ctx.db, ids)) };
  });
}
