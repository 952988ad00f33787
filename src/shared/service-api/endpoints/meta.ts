/** The endpoints the server and the GraphQL area register (server.ts, graphql/graphql.routes.ts). */
import { op } from '../endpoint';
import { GraphqlRequest, GraphqlResponse } from '../graphql';
import { OpenApiDocument } from '../openapi';

export const getOpenApi = op({
  method: 'GET',
  path: '/api/openapi.json',
  operationId: 'getOpenApi',
  summary: 'This OpenAPI document',
  tags: ['meta'],
  security: [],
  response: { 200: OpenApiDocument },
});

export const postGraphql = op({
  method: 'POST',
  path: '/api/graphql',
  operationId: 'postGraphql',
  summary: 'GraphQL queries and mutations (subscriptions: WebSocket on this path, graphql-transport-ws)',
  tags: ['graphql'],
  body: GraphqlRequest,
  response: { 200: GraphqlResponse },
});
