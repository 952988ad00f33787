/**
 * The mount's own OpenAPI document at /flow/api/openapi.json, built from the schemas of the
 * routes registered in the mount (which stay out of /api's document: they are marked hidden
 * there).
 */
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { APP_VERSION } from '../../shared/version';
import { FlowErrorBody } from './flow.schemas';

interface FlowRoute {
  method: string;
  url: string;
  schema: FastifySchema & Record<string, unknown>;
}

/** A route schema for the mount: documented here, hidden from /api's document. */
export function flowSchema<S extends FastifySchema>(schema: S): S {
  return { ...schema, hide: true, tags: schema.tags ?? ['flow'] };
}

/** Starts collecting the routes of the mount's scope. */
export function collectFlowRoutes(scope: FastifyInstance): FlowRoute[] {
  const routes: FlowRoute[] = [];
  scope.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS' || !route.schema) continue;
      routes.push({ method, url: route.url, schema: route.schema as FlowRoute['schema'] });
    }
  });
  return routes;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/FlowError' } } },
});

/** The document for the collected routes. */
export function buildFlowOpenApi(routes: FlowRoute[], origin: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/^\/flow\/api/, '').replace(/:([A-Za-z_]+)/g, '{$1}');
    const s = route.schema;
    const parameters = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const query = s.querystring as { properties?: Record<string, unknown> } | undefined;
    for (const [name, schema] of Object.entries(query?.properties ?? {})) {
      parameters.push({ name, in: 'query', required: false, schema: schema as { type: string } });
    }
    const responses: Record<string, unknown> = {
      '400': errorResponse('Bad request: {"error": message} or {"error": {field: [messages]}}'),
      default: errorResponse('Any other error, with the same body'),
    };
    if (!(Array.isArray(s.security) && s.security.length === 0)) responses['401'] = errorResponse('No valid token');
    if (path.includes('{')) responses['404'] = errorResponse('Not found');
    for (const [status, schema] of Object.entries((s.response ?? {}) as Record<string, unknown>)) {
      responses[status] = { description: `HTTP ${status}`, content: { 'application/json': { schema } } };
    }
    const op: Record<string, unknown> = {
      operationId:
        s.operationId ??
        `flow${route.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ?? '').toUpperCase())}`,
      summary: s.summary ?? `${route.method} ${path}`,
      tags: s.tags ?? ['flow'],
      parameters,
      responses,
    };
    if (s.security) op.security = s.security;
    if (s.body) op.requestBody = { required: true, content: { 'application/json': { schema: s.body } } };
    if (s.consumes) {
      op.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: s.multipart ?? { type: 'object' } } },
      };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: "Laneway's Flow-compatible API (the wire of Flow's client flowbio)",
      version: APP_VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: `${origin}/flow/api`, description: 'this service' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { FlowError: FlowErrorBody },
    },
    security: [{ bearer: [] }],
    paths,
  };
}
