/**
 * Collects every route as it is registered and serves them as an OpenAPI 3.1 document at
 * /api/openapi.json. The document comes from the same schemas that validate requests, so it
 * cannot drift from what the service serves.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { APP_VERSION } from '../../shared/version';
import './route-docs';

interface CollectedRoute {
  method: string;
  url: string;
  schema: Record<string, unknown>;
}

const ERROR_BODY = {
  type: 'object',
  required: ['error', 'code', 'status'],
  properties: { error: { type: 'string' }, code: { type: 'string' }, status: { type: 'integer' } },
};

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
    out.push({ name, in: 'query', required: query?.required?.includes(name) ?? false, schema });
  }
  return out;
}

/** Builds the OpenAPI document from the collected routes. */
export function buildOpenApi(routes: CollectedRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.url);
    const op: Record<string, unknown> = {
      summary: route.schema.summary ?? `${route.method} ${path}`,
      tags: route.schema.tags ?? [],
      parameters: parametersOf(route),
      responses: {},
    };
    if (route.schema.description) op.description = route.schema.description;
    if (route.schema.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: route.schema.body } } };
    }
    if (route.schema.consumes) {
      op.requestBody = {
        required: true,
        content: Object.fromEntries(
          (route.schema.consumes as string[]).map((c) => [c, { schema: { type: 'object' } }]),
        ),
      };
    }
    const responses = (route.schema.response ?? {}) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(responses)) {
      out[status] = { description: `HTTP ${status}`, content: { 'application/json': { schema } } };
    }
    if (Object.keys(out).length === 0) out['200'] = { description: 'Success' };
    out.default = { description: 'Error', content: { 'application/json': { schema: ERROR_BODY } } };
    op.responses = out;
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Bioinformatics Analysis Service (Laneway embedded)', version: APP_VERSION },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: ERROR_BODY },
    },
    security: [{ bearer: [] }],
    paths,
  };
}
