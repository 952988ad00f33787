/**
 * POST /flow/api/graphql: Flow's legacy GraphQL API for flowbio's `Client(url)` (FLOW-WIRE.md
 * §6). JSON requests and the GraphQL multipart request (uploads). Every answer is JSON with
 * `data` and, on failure, `errors` (flowbio raises GraphQlError on `errors` and needs JSON even
 * for a refusal); each error carries the status and body the v2 mount would answer. Documents
 * are bounded: the schema has no cycles, and a request names at most a few root fields, a few
 * hundred fields in all, and one run.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  buildSchema,
  execute,
  type GraphQLError,
  Kind,
  parse,
  validate,
  visit,
  type DocumentNode,
  type ExecutionResult,
} from 'graphql';
import type { ServiceContext } from '../../context';
import type { PipelineService } from '../../executions/execution-service';
import { toApiError } from '../../http/error-handler';
import { FlowError, flowErrorOf } from '../flow-errors';
import { flowSchema } from '../flow-openapi';
import { MultipartRefusal, readGraphqlMultipart, type GraphqlOperation } from './legacy-multipart';
import { legacyRoot, type LegacyContext } from './legacy-resolvers';
import { legacyTypeDefs } from './legacy-schema';

const MAX_ROOT_FIELDS = 8;
const MAX_FIELDS = 400;
const RUN_MUTATIONS = new Set(['runPipeline']);

/** Why a document is too costly to run, or null. */
export function legacyCost(doc: DocumentNode): string | null {
  let fields = 0;
  let runs = 0;
  let roots = 0;
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const sel of def.selectionSet.selections) {
      if (sel.kind !== Kind.FIELD) continue;
      roots += 1;
      if (RUN_MUTATIONS.has(sel.name.value)) runs += 1;
    }
  }
  visit(doc, { Field: () => void (fields += 1) });
  if (roots > MAX_ROOT_FIELDS) return `At most ${MAX_ROOT_FIELDS} root fields per request (this one has ${roots})`;
  if (fields > MAX_FIELDS) return `At most ${MAX_FIELDS} fields per request (this one has ${fields})`;
  if (runs > 1) return 'At most one runPipeline per request';
  return null;
}

/** A GraphQL error with the status and body the v2 mount answers for the same refusal. */
function errorOf(err: GraphQLError, log: (msg: string) => void) {
  const original = err.originalError;
  let status = 400;
  let body: Record<string, unknown> | null = null;
  if (original instanceof FlowError) {
    status = original.status;
    body = original.body;
  } else if (original) {
    const apiError = toApiError(original);
    if (apiError) ({ status, body } = flowErrorOf(apiError));
    else {
      log(`INTERNAL legacy GraphQL: ${original.stack ?? String(original)}`);
      status = 500;
      body = { error: 'Internal error: the service failed unexpectedly' };
    }
  }
  const message = body ? (typeof body.error === 'string' ? body.error : JSON.stringify(body)) : err.message;
  return {
    message,
    ...(err.locations ? { locations: err.locations } : {}),
    ...(err.path ? { path: err.path } : {}),
    extensions: { status, ...(body ?? {}) },
  };
}

function refuse(reply: FastifyReply, message: string) {
  return reply.status(400).send({ data: null, errors: [{ message, extensions: { status: 400, error: message } }] });
}

/** The operation of a JSON body, or why it is none. */
function jsonOperation(text: string): GraphqlOperation | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'The body must be JSON: {"query": "...", "variables": {...}}';
  }
  const b = body as Partial<GraphqlOperation> | null;
  if (!b || typeof b !== 'object' || typeof b.query !== 'string') return 'The body must have a "query" string';
  const variables = b.variables === null || b.variables === undefined ? {} : b.variables;
  if (typeof variables !== 'object' || Array.isArray(variables)) return '"variables" must be an object';
  return {
    query: b.query,
    variables,
    operationName: typeof b.operationName === 'string' ? b.operationName : undefined,
  };
}

export function legacyGraphqlRoutes(scope: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  const schema = buildSchema(legacyTypeDefs);
  const root = legacyRoot(scope, ctx, svc);
  void scope.register(async (g) => {
    // The body is read here, so that even unparsable JSON gets a GraphQL-shaped answer.
    g.removeContentTypeParser('application/json');
    g.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    g.post(
      '/graphql',
      {
        schema: flowSchema({
          summary:
            "Flow's legacy GraphQL API (flowbio.Client): login, accessToken, data, sample, execution, pipelineCategories, runPipeline, uploads as GraphQL multipart requests",
          tags: ['flow-legacy'],
          security: [],
          consumes: ['application/json', 'multipart/form-data'],
        }),
      },
      async (request, reply) => {
        let operation: GraphqlOperation;
        if (/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
          try {
            operation = await readGraphqlMultipart(request);
          } catch (err) {
            if (err instanceof MultipartRefusal) return refuse(reply, err.message);
            throw err;
          }
        } else {
          const parsed = jsonOperation(typeof request.body === 'string' ? request.body : '');
          if (typeof parsed === 'string') return refuse(reply, parsed);
          operation = parsed;
        }
        let document: DocumentNode;
        try {
          document = parse(operation.query, { maxTokens: 5000 });
        } catch (err) {
          return refuse(reply, (err as GraphQLError).message);
        }
        const invalid = validate(schema, document);
        if (invalid.length) {
          return reply.status(400).send({ data: null, errors: invalid.map((e) => errorOf(e, ctx.log)) });
        }
        const tooCostly = legacyCost(document);
        if (tooCostly) return refuse(reply, tooCostly);
        const result = (await execute({
          schema,
          document,
          rootValue: root,
          contextValue: { request, reply } satisfies LegacyContext,
          variableValues: operation.variables,
          operationName: operation.operationName,
        })) as ExecutionResult;
        const errors = result.errors?.map((e) => errorOf(e, ctx.log));
        return reply.send(errors ? { data: result.data ?? null, errors } : { data: result.data });
      },
    );
  });
}
