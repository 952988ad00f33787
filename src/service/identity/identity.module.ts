/**
 * The identity module: the authentication hook, auth and user routes, groups, notifications,
 * sharing for every resource kind, and projects (the first owned kind).
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { groupsRoutes } from '../groups/groups.routes';
import { notificationsRoutes } from '../notifications/notifications.routes';
import { sharesRoutes } from '../shares/shares.routes';
import { projectsRoutes } from '../projects/projects.routes';
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
  groupsRoutes(app, ctx);
  notificationsRoutes(app, ctx);
  sharesRoutes(app, ctx);
  projectsRoutes(app, ctx);
}
