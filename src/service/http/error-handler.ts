/**
 * Maps everything a request can fail with to the spec's error body. Bad input of any kind
 * (malformed JSON, wrong content type, schema violations, oversized bodies) is a 4xx; only a
 * bug is a 500, and it is logged.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceLogFn } from '../service-log';
import { ApiError } from './api-error';
import { storageFullError } from './storage-errors';

interface AjvIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function fieldsFromValidation(issues: AjvIssue[], context: string | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    let name = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    if (issue.keyword === 'required' && typeof issue.params?.missingProperty === 'string') {
      name = name ? `${name}.${issue.params.missingProperty}` : issue.params.missingProperty;
    } else if (issue.keyword === 'additionalProperties' && typeof issue.params?.additionalProperty === 'string') {
      const extra = issue.params.additionalProperty;
      fields[name ? `${name}.${extra}` : extra] = 'unknown field';
      continue;
    }
    fields[name || context || 'body'] ??= issue.message ?? 'invalid';
  }
  return fields;
}

/** Turns a thrown error into an ApiError, deciding what counts as bad input. */
export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  const full = storageFullError(err);
  if (full) return full;
  const e = err as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (e && Array.isArray(e.validation)) {
    return new ApiError('VALIDATION_ERROR', 'Invalid request', {
      fields: fieldsFromValidation(e.validation, e.validationContext),
    });
  }
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('VALIDATION_ERROR', 'Unsupported content type: send application/json', {
        fields: { body: 'unsupported content type' },
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('VALIDATION_ERROR', 'Malformed JSON body', { fields: { body: 'malformed JSON' } });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('VALIDATION_ERROR', 'Content-Length does not match the body', { fields: {} });
    default:
      break;
  }
  if (e instanceof SyntaxError || (e?.statusCode === 400 && typeof e?.message === 'string')) {
    return new ApiError('VALIDATION_ERROR', e.message || 'Bad request', { fields: {} });
  }
  if (e?.statusCode === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  return null;
}

/** Refusals lab IT wants in the service log (docs/service-log.md): a failed sign-in, a limit hit. */
const LIMIT_CODES = new Set<string>(['RATE_LIMITED', 'PAYLOAD_TOO_LARGE', 'INSUFFICIENT_STORAGE']);

function logRefusal(log: ServiceLogFn, apiError: ApiError, request: FastifyRequest): void {
  const body = request.body as { username?: unknown } | undefined;
  const username = typeof body?.username === 'string' ? body.username.slice(0, 150) : null;
  const where = { method: request.method, path: request.url.split('?')[0], ip: request.ip };
  if (apiError.code === 'INVALID_CREDENTIALS')
    log(`sign-in failed for ${JSON.stringify(username ?? '?')} from ${request.ip}`, {
      event: 'signin.failed',
      level: 'warn',
      username,
      ...where,
    });
  else if (LIMIT_CODES.has(apiError.code))
    log(`limit hit: ${apiError.code} on ${request.method} ${where.path} from ${request.ip}: ${apiError.message}`, {
      event: 'limit.hit',
      level: 'warn',
      code: apiError.code,
      username,
      ...where,
    });
}

/** Installs the error and not-found handlers on a server. */
export function installErrorHandling(app: FastifyInstance, log: ServiceLogFn): void {
  app.setErrorHandler((err, request, reply) => {
    const apiError = toApiError(err);
    if (apiError) {
      logRefusal(log, apiError, request);
      for (const [k, v] of Object.entries(apiError.headers)) void reply.header(k, v);
      return reply.status(apiError.status).send(apiError.toBody());
    }
    log(`INTERNAL ${request.method} ${request.url}: ${(err as Error)?.stack ?? String(err)}`);
    return reply
      .status(500)
      .send({ error: 'Internal error: the service failed unexpectedly', code: 'INTERNAL', status: 500 });
  });
  app.setNotFoundHandler((request, reply) => {
    return reply
      .status(404)
      .send({ error: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'NOT_FOUND', status: 404 });
  });
}
