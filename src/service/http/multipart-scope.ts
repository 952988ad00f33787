/**
 * An encapsulated scope where fastify leaves multipart bodies unread: the routes registered in
 * it stream them with busboy themselves (chunked uploads, lanes).
 */
import type { FastifyInstance } from 'fastify';

/** Registers `routes` in a scope that does not parse multipart/form-data. */
export async function inMultipartScope(app: FastifyInstance, routes: (scope: FastifyInstance) => void): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
    routes(scope);
  });
}
