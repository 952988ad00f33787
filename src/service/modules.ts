/**
 * The service's feature modules in registration order. Each area adds one line here and keeps
 * its routes, commands and presenters in its own folder.
 */
import type { FastifyInstance } from 'fastify';
import { auditRoutes } from './audit/audit.routes';
import type { ServiceContext } from './context';
import { registerData } from './data/data.module';
import { groupsRoutes } from './groups/groups.routes';
import { healthRoutes } from './health/health.routes';
import { authRoutes } from './identity/auth.routes';
import { installAuthentication } from './identity/authenticate';
import { usersRoutes } from './identity/users.routes';
import { notificationsRoutes } from './notifications/notifications.routes';
import { registerPipelines } from './pipelines/pipelines.module';
import { projectsRoutes } from './projects/projects.routes';
import { sharesRoutes } from './shares/shares.routes';
import { webhooksRoutes } from './webhooks/webhooks.routes';

export interface ServiceModule {
  name: string;
  register(app: FastifyInstance, ctx: ServiceContext): void | Promise<void>;
}

export const modules: readonly ServiceModule[] = [
  { name: 'health', register: (app) => healthRoutes(app) },
  // Authentication comes before every module whose routes call requireUser.
  { name: 'authentication', register: (app, ctx) => installAuthentication(app, ctx) },
  { name: 'auth', register: (app, ctx) => authRoutes(app, ctx) },
  { name: 'users', register: (app, ctx) => usersRoutes(app, ctx) },
  { name: 'groups', register: (app, ctx) => groupsRoutes(app, ctx) },
  { name: 'notifications', register: (app, ctx) => notificationsRoutes(app, ctx) },
  { name: 'shares', register: (app, ctx) => sharesRoutes(app, ctx) },
  { name: 'projects', register: (app, ctx) => projectsRoutes(app, ctx) },
  { name: 'data', register: registerData },
  { name: 'pipelines', register: registerPipelines },
  { name: 'audit', register: (app, ctx) => auditRoutes(app, ctx) },
  { name: 'webhooks', register: (app, ctx) => webhooksRoutes(app, ctx) },
];
