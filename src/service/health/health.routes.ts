/** GET /api/health: liveness and version, no authentication. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

import { APP_VERSION } from '../../shared/version';
import { countUsers } from '../auth/users.store';
import type { ServiceContext } from '../context';
import { getHealth } from '../../shared/service-api/endpoints/health';
import { serve } from '../http/serve-endpoint';

export function healthRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  // Once an account exists one always will (the last administrator cannot be removed): asked of
  // the database only until then, so that health stays the cheapest request there is.
  let accounts = false;
  const setupOpen = () => !(accounts ||= countUsers(ctx.db) > 0);
  serve(app.withTypeProvider<TypeBoxTypeProvider>(), getHealth, async () => ({
    status: 'ok' as const,
    version: APP_VERSION,
    // Anyone may learn this: while it is true, anyone may also create the first account.
    setup_open: setupOpen(),
  }));
}
