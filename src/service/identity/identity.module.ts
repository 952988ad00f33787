/** The identity module: authentication hook, auth routes and the admin's user routes. */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { authRoutes } from './auth.routes';
import { installAuthentication } from './authenticate';
import { signingSecret } from './tokens';
import { usersRoutes } from './users.routes';

/** Registers identity: must come before every module whose routes call requireUser. */
export function registerIdentity(app: FastifyInstance, ctx: ServiceContext): void {
  // Create the installation's secret at start, not on the first login.
  signingSecret(ctx);
  installAuthentication(app, ctx);
  authRoutes(app, ctx);
  usersRoutes(app, ctx);
}
