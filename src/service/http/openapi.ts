/**
 * Collects every route as it is registered and serves them as an OpenAPI 3.1 document at
 * /api/openapi.json. The document comes from the same schemas that validate requests, so it
 * cannot drift from what the service serves.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ErrorBody } from '../../shared/service-api/error-body';
import type { OpenApiDocument } from '../../shared/service-api/openapi';
import { APP_VERSION } from '../../shared/version';
import './route-docs';

interface CollectedRoute {
  method: string;
  url: string;
  schema: Record<string, unknown>;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ERROR_REF } },
});

/** `get /api/groups/{slug}/invite/` -> `postGroupsBySlugInvite`: unique per method and path. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith('{') ? `by-${part.slice(1, -1)}` : part))
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/**
 * The 4xx answers a route can give, from what it declares: 400 when it validates input (the
 * error handler answers VALIDATION_ERROR), 401 unless it is public (`security: []`), 404 when
 * the path names a resource. Statuses a route documents itself are kept.
 */
function clientErrorsOf(route: CollectedRoute, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const { body, params, querystring, consumes, security } = route.schema;
  if (body || params || querystring || consumes)
    out['400'] = errorResponse('VALIDATION_ERROR: the request is malformed');
  if (!(Array.isArray(security) && security.length === 0))
    out['401'] = errorResponse('UNAUTHENTICATED: no valid access token');
  if (path.includes('{')) out['404'] = errorResponse('NOT_FOUND: no such resource, or not visible to the caller');
  return out;
}

function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** Starts collecting routes; call before any route is registered. */
export function collectRoutes(app: FastifyInstance): CollectedRoute[] {
  const routes: CollectedRoute[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      if ((route.schema as { hide?: boolean } | undefined)?.hide) continue;
      routes.push({ method, url: route.url, schema: (route.schema ?? {}) as Record<string, unknown> });
    }
  });
  return routes;
}

function parametersOf(route: CollectedRoute): unknown[] {
  const out: unknown[] = [];
  const params = route.schema.params as { properties?: Record<string, unknown> } | undefined;
  for (const match of route.url.matchAll(/:([A-Za-z_]+)/g)) {
    out.push({
      name: match[1],
      in: 'path',
      required: true,
      schema: params?.properties?.[match[1]!] ?? { type: 'string' },
    });
  }
  const query = route.schema.querystring as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  for (const [name, schema] of Object.entries(query?.properties ?? {})) {
    // A parameter with a default (page, per_page) is filled in by validation: clients may omit it.
    const required = (query?.required?.includes(name) ?? false) && !('default' in (schema as object));
    out.push({ name, in: 'query', required, schema });
  }
  return out;
}

/** Builds the OpenAPI document from the collected routes. */
export function buildOpenApi(routes: CollectedRoute[], origin: string): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.url);
    const op: Record<string, unknown> = {
      operationId: route.schema.operationId ?? operationIdOf(route.method, path),
      summary: route.schema.summary ?? `${route.method} ${path}`,
      tags: route.schema.tags ?? [],
      parameters: parametersOf(route),
      responses: {},
    };
    if (route.schema.description) op.description = route.schema.description;
    if (route.schema.security) op.security = route.schema.security;
    if (route.schema.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: route.schema.body } } };
    }
    if (route.schema.consumes) {
      op.requestBody = {
        required: true,
        content: Object.fromEntries(
          (route.schema.consumes as string[]).map((c) => [c, { schema: route.schema.multipart ?? { type: 'object' } }]),
        ),
      };
    }
    const responses = (route.schema.response ?? {}) as Record<string, unknown>;
    const out: Record<string, unknown> = clientErrorsOf(route, path);
    for (const [status, schema] of Object.entries(responses)) {
      out[status] = { description: `HTTP ${status}`, content: { 'application/json': { schema } } };
    }
    if (Object.keys(out).length === 0) out['200'] = { description: 'Success' };
    out.default = errorResponse('Any other error, with the same body');
    op.responses = out;
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bioinformatics Analysis Service (Laneway embedded)',
      version: APP_VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: origin, description: 'this service' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: ErrorBody },
    },
    security: [{ bearer: [] }],
    paths,
  };
}
