/**
 * Registers a route from its endpoint descriptor (src/shared/service-api/endpoint.ts): the
 * method, the path and every schema come from the descriptor the clients call, so the route
 * cannot answer at another path or with another shape than the one they read. The handler is
 * typed from the same schemas (fastify's TypeBox type provider): its params, query and body, and
 * what it may return.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { Endpoint } from '../../shared/service-api/endpoint';

/** The fastify schema of an endpoint, as the type provider reads it. */
export interface SchemaOf<E extends Endpoint> extends FastifySchema {
  params: E['params'];
  querystring: E['query'];
  body: E['body'];
  response: E['response'];
}

export type EndpointHandler<E extends Endpoint> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<E>,
  TypeBoxTypeProvider
>;

/** The fastify schema (with its OpenAPI fields) of an endpoint. */
export function routeSchema(endpoint: Endpoint): FastifySchema {
  const schema: FastifySchema = {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    tags: [...endpoint.tags],
  };
  if (endpoint.response) schema.response = endpoint.response;
  if (endpoint.description !== undefined) schema.description = endpoint.description;
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.body) schema.body = endpoint.body;
  if (endpoint.multipart) schema.multipart = endpoint.multipart;
  if (endpoint.consumes) schema.consumes = [...endpoint.consumes];
  if (endpoint.security) schema.security = endpoint.security.map((s) => ({ ...s }) as Record<string, string[]>);
  return schema;
}

// Any type provider: an area may register on its own typed instance or on the plain one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyInstance = FastifyInstance<RawServerDefault, any, any, any, any>;

/** Registers `endpoint`'s route on `app` with `handler`. */
export function serve<const E extends Endpoint>(app: AnyInstance, endpoint: E, handler: EndpointHandler<E>): void {
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: routeSchema(endpoint),
    // The descriptor itself, so that a route can be told to come from one (the architecture test).
    config: { endpoint },
    handler: handler as RouteHandlerMethod,
  });
}
