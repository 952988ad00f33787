/** GET /api/health: liveness and version, no authentication. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { HealthResponse } from '../../shared/service-api/health';
import { APP_VERSION } from '../../shared/version';

export function healthRoutes(app: FastifyInstance): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Service liveness and version',
        tags: ['meta'],
        security: [],
        response: { 200: HealthResponse },
      },
    },
    async () => ({ status: 'ok' as const, version: APP_VERSION }),
  );
}
