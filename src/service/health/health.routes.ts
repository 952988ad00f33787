/** GET /api/health: liveness and version, no authentication. */
import type { FastifyInstance } from 'fastify';
import { APP_VERSION } from '../../shared/version';

export function healthRoutes(app: FastifyInstance): void {
  app.get(
    '/api/health',
    {
      schema: {
        summary: 'Service liveness and version',
        tags: ['meta'],
        response: {
          200: {
            type: 'object',
            required: ['status', 'version'],
            properties: { status: { type: 'string', const: 'ok' }, version: { type: 'string' } },
          },
        },
      },
    },
    async () => ({ status: 'ok', version: APP_VERSION }),
  );
}
