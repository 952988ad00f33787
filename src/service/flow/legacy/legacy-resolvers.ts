/**
 * The root resolvers of the legacy GraphQL schema. Each one is a thin translation onto what the
 * v2 mount already does: the same sign-in path and cookie, the same presenters and policy, the
 * same run command, and uploads forwarded to the v2 upload routes (legacy-forward.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../context';
import type { PipelineService } from '../../executions/execution-service';
import { createRun } from '../../executions/run-command';
import { flowUser } from '../flow-auth';
import { readFlowCookie, setFlowCookie } from '../flow-cookie';
import { badRequest, flowNotFound } from '../flow-errors';
import { multiplexedComplete } from '../flow-multiplexed';
import { runInputOf } from '../flow-run';
import { sheetById } from '../flow-sheets.store';
import { flowLogIn, flowRefresh } from '../flow-session';
import { forwardChunk, type LegacyChunkArgs, type LegacyUploadKind } from './legacy-forward';
import { legacyCategories, legacyData, legacyExecution, legacyId, legacySample, legacyUser } from './legacy-views';

export interface LegacyContext {
  request: FastifyRequest;
  reply: FastifyReply;
}

type Args = Record<string, unknown>;

/** A JSONString argument as an object (`"{}"` when the client has none). */
function jsonObject(name: string, text: unknown): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(typeof text === 'string' ? text : '');
  } catch {
    throw badRequest(`${name} must be a JSON-encoded object`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest(`${name} must be a JSON-encoded object`);
  }
  return value as Record<string, unknown>;
}

/**
 * `sampleParams` as the v2 run body's `csv_params`: each entry is either a sample sheet
 * (`{rows: [{sample}]}`, as v2 sends it), a list of sample ids, or one sample id.
 */
function csvParamsOf(sampleParams: Record<string, unknown>) {
  const out: Record<string, { rows: Array<{ sample?: string | number }> }> = {};
  for (const [name, value] of Object.entries(sampleParams)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'rows' in value) {
      const rows = (value as { rows: unknown }).rows;
      if (!Array.isArray(rows)) throw badRequest(`sampleParams.${name}.rows must be a list`);
      out[name] = { rows: rows as Array<{ sample?: string | number }> };
    } else {
      const ids = Array.isArray(value) ? value : [value];
      if (!ids.every((v) => typeof v === 'string' || typeof v === 'number')) {
        throw badRequest(`sampleParams.${name} must be sample ids`);
      }
      out[name] = { rows: (ids as Array<string | number>).map((sample) => ({ sample })) };
    }
  }
  return out;
}

/** The legacy `data(id)` also answers for an annotation sheet the caller uploaded and is pending. */
function pendingSheetData(ctx: ServiceContext, userId: number, id: string) {
  const sheet = sheetById(ctx, id);
  if (!sheet || sheet.userId !== userId) return null;
  return {
    id: sheet.id,
    filename: sheet.filename,
    filetype: 'annotation',
    size: sheet.size,
    category: 'annotation',
    created: Math.floor(sheet.created / 1000),
    isDirectory: false,
    isBinary: /\.xlsx$/i.test(sheet.filename),
    private: true,
    upstreamProcessExecution: null,
    sample: null,
    project: null,
    owner: null,
    genome: null,
    genomeFasta: null,
    genomeGtf: null,
  };
}

export function legacyRoot(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService) {
  const upload = (kind: LegacyUploadKind) => async (args: Args, c: LegacyContext) => {
    const user = flowUser(c.request);
    const chunk = args as unknown as LegacyChunkArgs;
    const dataId = await forwardChunk(app, c.request, kind, chunk);
    // The legacy client uploads one multiplexed file and never an R2: its lane need not wait for one.
    if (kind === 'upload/multiplexed' && chunk.isLast) multiplexedComplete(ctx, user, Number(dataId));
    return { dataId };
  };
  return {
    login: async (args: Args, c: LegacyContext) => {
      const session = await flowLogIn(ctx, String(args.username), String(args.password), c.request.ip);
      setFlowCookie(ctx, c.request, c.reply, session.refresh);
      return { accessToken: session.access };
    },
    accessToken: async (_args: Args, c: LegacyContext) => (await flowRefresh(ctx, readFlowCookie(c.request))).access,
    user: (args: Args, c: LegacyContext) => legacyUser(ctx, flowUser(c.request), String(args.username)),
    data: (args: Args, c: LegacyContext) => {
      const user = flowUser(c.request);
      if (args.id === null || args.id === undefined) return null;
      const id = legacyId(args.id);
      if (id === undefined) {
        const sheet = pendingSheetData(ctx, user.id, String(args.id));
        if (!sheet) throw flowNotFound();
        return sheet;
      }
      return legacyData(ctx, user, id);
    },
    sample: (args: Args, c: LegacyContext) => {
      const id = legacyId(args.id);
      const user = flowUser(c.request);
      if (id === undefined) throw flowNotFound();
      return legacySample(ctx, user, id);
    },
    execution: (args: Args, c: LegacyContext) => {
      const id = legacyId(args.id);
      const user = flowUser(c.request);
      if (id === undefined) throw flowNotFound();
      return legacyExecution(ctx, user, id);
    },
    pipelineCategories: (_args: Args, c: LegacyContext) => (flowUser(c.request), legacyCategories(svc.catalogue)),
    uploadData: upload('upload'),
    uploadAnnotationData: upload('upload/annotation'),
    uploadMultiplexedData: upload('upload/multiplexed'),
    runPipeline: (args: Args, c: LegacyContext) => {
      const user = flowUser(c.request);
      const versionId = legacyId(args.id);
      const found = versionId === undefined ? undefined : svc.catalogue.version(versionId);
      if (!found || versionId === undefined) throw flowNotFound();
      if (args.genome !== null && args.genome !== undefined) {
        throw badRequest('This service has no genome records: give references as data parameters (dataParams)');
      }
      const input = runInputOf(found.version, {
        params: jsonObject('params', args.params),
        data_params: jsonObject('dataParams', args.dataParams),
        csv_params: csvParamsOf(jsonObject('sampleParams', args.sampleParams)),
        nextflow_version: String(args.nextflowVersion),
      });
      const row = createRun(ctx, svc.catalogue, svc.queue.capacity, user, versionId, input);
      svc.queue.kick();
      return {
        execution: {
          id: String(row.id),
          pipelineVersion: {
            id: String(found.version.id),
            pipeline: { id: String(found.pipeline.id), name: found.pipeline.manifest.name },
          },
        },
      };
    },
  };
}
