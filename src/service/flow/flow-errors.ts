/**
 * Flow's error bodies (FLOW-WIRE.md §1.2): always a JSON object, `{"error": "message"}` or
 * `{"error": {field: [messages]}}` for form errors, and the annotation verdicts
 * `{"validation": [...]}` / `{"warnings": [...]}` without an `error` key. flowbio maps the status
 * to its exceptions (400 → exit 5, 401 → 3, 404 → 4, anything else → 1), so the statuses follow
 * Laneway's error codes except where Flow's own answer differs (bad credentials are a 400 there).
 */
import type { FastifyInstance } from 'fastify';
import { type ApiError } from '../http/api-error';
import { toApiError } from '../http/error-handler';

/** An answer of the mount's own that is not one of the service's error codes. */
export class FlowError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.error === 'string' ? body.error : JSON.stringify(body));
    this.name = 'FlowError';
  }
}

/** A 400 with Flow's plain `{"error": message}`. */
export const badRequest = (message: string) => new FlowError(400, { error: message });

/** Flow's 404 body. */
export const flowNotFound = () => new FlowError(404, { error: 'Not found' });

/** Flow's body and status for one of the service's errors. */
export function flowErrorOf(err: ApiError): { status: number; body: Record<string, unknown> } {
  const fields = err.extras.fields as Record<string, string> | undefined;
  switch (err.code) {
    case 'INVALID_CREDENTIALS':
      return { status: 400, body: { error: 'Invalid credentials' } };
    case 'INVALID_REFRESH_TOKEN':
      return { status: 400, body: { error: 'Refresh token not valid' } };
    case 'NOT_FOUND':
      return { status: 404, body: { error: 'Not found' } };
    case 'INSUFFICIENT_PERMISSIONS':
      return { status: 403, body: { error: 'User cannot run pipelines' } };
    default:
      break;
  }
  if (fields && Object.keys(fields).length > 0) {
    const asLists = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, [v]]));
    return { status: err.status, body: { error: asLists } };
  }
  const extras: Record<string, unknown> = {};
  // Laneway's extras that help a caller act (the existing data id of a duplicate, the invalid samples).
  for (const key of ['data_id', 'invalid_samples', 'missing_params']) {
    if (err.extras[key] !== undefined) extras[key] = err.extras[key];
  }
  return { status: err.status, body: { error: err.message, ...extras } };
}

/** The mount's error and not-found handlers (its own scope: /api keeps the service's bodies). */
export function installFlowErrors(scope: FastifyInstance, log: (msg: string) => void): void {
  scope.setErrorHandler((err, request, reply) => {
    if (err instanceof FlowError) return reply.status(err.status).send(err.body);
    const apiError = toApiError(err);
    if (apiError) {
      for (const [k, v] of Object.entries(apiError.headers)) void reply.header(k, v);
      const { status, body } = flowErrorOf(apiError);
      return reply.status(status).send(body);
    }
    log(`INTERNAL ${request.method} ${request.url}: ${(err as Error)?.stack ?? String(err)}`);
    return reply.status(500).send({ error: 'Internal error: the service failed unexpectedly' });
  });
  scope.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: 'Not found' }));
}
