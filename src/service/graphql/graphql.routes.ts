/**
 * GraphQL at /api/graphql: POST for queries and mutations (Bearer token), and a WebSocket on the
 * same path speaking graphql-transport-ws (the graphql-ws library) for subscriptions, with the
 * access token in connectionParams.authorization. Only upgrades for this path are taken.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { buildSchema, graphql, GraphQLError, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { targetPathname } from '../../node/request-target';
import { postGraphql } from '../../shared/service-api/endpoints/meta';
import type { ServiceContext } from '../context';
import { requireUser } from '../auth/authenticate';
import { serve } from '../http/serve-endpoint';
import type { PipelineService } from '../executions/execution-service';
import { rootResolvers, toGraphQLError, type GqlContext } from './resolvers';
import { SocketSessions, type SocketSession } from './socket-sessions';
import { sharedSubscribe } from './shared-subscribe';
import { typeDefs } from './schema.graphql';
import { documentCostRefusal } from './document-cost';

export const GRAPHQL_PATH = postGraphql.path;

/** Formats errors so that every one carries a service code. */
function formatErrors(errs: readonly GraphQLError[]) {
  return errs.map((e) => {
    const original = e.originalError ? toGraphQLError(e.originalError) : null;
    const extensions =
      original?.extensions ??
      (Object.keys(e.extensions).length ? e.extensions : { code: 'VALIDATION_ERROR', status: 400 });
    return {
      message: original?.message ?? e.message,
      locations: e.locations?.map((l) => ({ line: l.line, column: l.column })),
      path: e.path ? [...e.path] : undefined,
      extensions,
    };
  });
}

/** The refusal of a document past the cost limit, in the service's error shape. */
function costError(message: string) {
  return { message, extensions: { code: 'VALIDATION_ERROR', status: 400, fields: { query: message } } };
}

/** Answers an upgrade we do not take with the spec's error body and closes the socket. */
function refuseUpgrade(socket: Duplex, status: 400 | 404): void {
  const body = JSON.stringify(
    status === 400
      ? { error: 'Malformed request target', code: 'VALIDATION_ERROR', status }
      : { error: 'No WebSocket endpoint at this path', code: 'NOT_FOUND', status },
  );
  const reason = status === 400 ? 'Bad Request' : 'Not Found';
  socket.on('error', () => {});
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Registers POST /api/graphql and the WebSocket endpoint on the same path. */
export function graphqlRoutes(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): GraphQLSchema {
  const schema = buildSchema(typeDefs);
  const root = rootResolvers(ctx, svc);

  serve(app.withTypeProvider<TypeBoxTypeProvider>(), postGraphql, async (request) => {
    const user = requireUser(request);
    const body = request.body;
    const tooCostly = documentCostRefusal(body.query);
    if (tooCostly) return { errors: [costError(tooCostly)] };
    const result = await graphql({
      schema,
      source: body.query,
      rootValue: root,
      // One request, one check (the hook verified the token just now).
      contextValue: { user, recheck: () => user } satisfies GqlContext,
      variableValues: body.variables ?? undefined,
      operationName: body.operationName ?? undefined,
    });
    const { errors, ...rest } = result;
    return errors ? { ...rest, errors: formatErrors(errors) } : rest;
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const sessions = new SocketSessions(ctx);
  const server = useServer<Record<string, unknown>, { session: SocketSession }>(
    {
      schema,
      subscribe: sharedSubscribe,
      roots: { query: root, mutation: root, subscription: root },
      // Built per operation, after onSubscribe re-checked the account: each event re-checks again.
      context: (c): GqlContext => {
        const session = c.extra.session!;
        return {
          user: sessions.user(session),
          recheck: (event) => sessions.user(session, event),
          reauthenticate: (token) =>
            sessions.reauthenticate(session, token, c.extra.request.socket.remoteAddress ?? 'unknown'),
        };
      },
      onConnect: async (c) => {
        try {
          const address = c.extra.request.socket.remoteAddress ?? 'unknown';
          const session = await sessions.open(c.extra.socket, c.connectionParams?.authorization, address);
          c.extra.session = session;
          // The socket may have gone while the credential was checked: forget it at once then.
          if (c.extra.socket.readyState >= c.extra.socket.CLOSING) sessions.closed(session);
          else c.extra.socket.once('close', () => sessions.closed(session));
          return session.expiresAt === null ? {} : { expiresAt: new Date(session.expiresAt).toISOString() };
        } catch {
          return false;
        }
      },
      onSubscribe: (c, _id, payload) => {
        if (typeof payload.query !== 'string')
          return [new GraphQLError('query is required', { extensions: { code: 'VALIDATION_ERROR' } })];
        try {
          // An ended session closes the socket here, before anything runs.
          sessions.user(c.extra.session!);
        } catch (err) {
          return [toGraphQLError(err)];
        }
        const tooCostly = documentCostRefusal(payload.query);
        if (tooCostly) return [new GraphQLError(tooCostly, { extensions: costError(tooCostly).extensions })];
      },
      onNext: (_c, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: formatErrors(result.errors) } : result,
      onError: (_c, _id, _payload, errs) => formatErrors(errs) as unknown as GraphQLError[],
    },
    wss,
  );

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // The only upgrade listener: anything else is refused and closed (an unanswered upgrade
    // would hold its socket open forever), and an unparsable target never throws.
    const pathname = targetPathname(req.url);
    if (pathname !== GRAPHQL_PATH) {
      refuseUpgrade(socket, pathname === null ? 400 : 404);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    for (const client of wss.clients) client.close(1001, 'Service stopping');
    await server.dispose();
    sessions.dispose();
    await new Promise<void>((r) => wss.close(() => r()));
  });
  return schema;
}
