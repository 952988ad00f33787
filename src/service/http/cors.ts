/**
 * CORS for the desktop renderer, which calls the service from another origin (file:// in
 * Electron, the browser-mode host). Credentials are never allowed cross-origin: the API is
 * authorised by the Bearer header, so a foreign page gains nothing it could not do itself.
 */
import type { FastifyInstance } from 'fastify';

export function installCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.headers.origin) return;
    void reply.header('access-control-allow-origin', '*');
    void reply.header('access-control-expose-headers', 'content-disposition, content-range, retry-after');
    if (request.method === 'OPTIONS') {
      void reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE');
      void reply.header('access-control-allow-headers', 'authorization, content-type, range');
      void reply.header('access-control-max-age', '600');
      return reply.status(204).send();
    }
  });
}
