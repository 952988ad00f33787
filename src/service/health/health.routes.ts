/** GET /api/health: liveness and version, no authentication. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

import { APP_VERSION } from '../../shared/version';
import { getHealth } from '../../shared/service-api/endpoints/health';
import { serve } from '../http/serve-endpoint';

export function healthRoutes(app: FastifyInstance): void {
  serve(app.withTypeProvider<TypeBoxTypeProvider>(), getHealth, async () => ({
    status: 'ok' as const,
    version: APP_VERSION,
  }));
}
