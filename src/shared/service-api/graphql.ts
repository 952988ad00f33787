/**
 * POST /api/graphql: queries and mutations (subscriptions go over a WebSocket on the same path
 * with graphql-transport-ws). The GraphQL schema itself is in service/graphql/schema.graphql.ts.
 */
import { Type, type Static } from 'typebox';
import { ExecutionStatus } from './executions';

export const GraphqlRequest = Type.Object({
  query: Type.String({ maxLength: 100_000 }),
  variables: Type.Optional(Type.Unsafe<Record<string, unknown> | null>({ type: ['object', 'null'] })),
  operationName: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'] })),
});
export type GraphqlRequest = Static<typeof GraphqlRequest>;

/** One GraphQL error, with the service's error code in `extensions.code`. */
export const GraphqlError = Type.Object(
  {
    message: Type.String(),
    locations: Type.Optional(Type.Array(Type.Object({ line: Type.Integer(), column: Type.Integer() }))),
    path: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Integer()]))),
    extensions: Type.Optional(Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true })),
  },
  { additionalProperties: true },
);
export type GraphqlError = Static<typeof GraphqlError>;

/** The answer: `data` as the query asked, and `errors` when some part failed. */
export const GraphqlResponse = Type.Object(
  { data: Type.Optional(Type.Unknown()), errors: Type.Optional(Type.Array(GraphqlError)) },
  { additionalProperties: true },
);
export type GraphqlResponse = Static<typeof GraphqlResponse>;

/** An update of the `executionUpdates(id)` subscription (graphql-operations.ts) as it selects it. */
export const ExecutionUpdate = Type.Object({
  id: Type.String(),
  status: ExecutionStatus,
  progress: Type.Number(),
  processExecutions: Type.Optional(
    Type.Array(
      Type.Object({
        process: Type.String(),
        status: Type.String(),
        progress: Type.Number(),
        startTime: Type.Optional(Type.String()),
        endTime: Type.Optional(Type.String()),
      }),
    ),
  ),
  logs: Type.Optional(
    Type.Array(
      Type.Object({ timestamp: Type.String(), process: Type.String(), message: Type.String(), level: Type.String() }),
    ),
  ),
});
export type ExecutionUpdate = Static<typeof ExecutionUpdate>;
