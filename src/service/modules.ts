/**
 * The service's feature modules in registration order. Each area adds one line here and keeps
 * its routes, commands and presenters in its own folder.
 */
import type { FastifyInstance } from 'fastify';
import { auditRoutes } from './audit/audit.routes';
import type { ServiceContext } from './context';
import { registerData } from './data/data.module';
import { healthRoutes } from './health/health.routes';
import { registerIdentity } from './identity/identity.module';
import { registerPipelines } from './pipelines/pipelines.module';
import { reportsRoutes } from './reports/reports.routes';
import { webhooksRoutes } from './webhooks/webhooks.routes';

export interface ServiceModule {
  name: string;
  register(app: FastifyInstance, ctx: ServiceContext): void | Promise<void>;
}

export const modules: readonly ServiceModule[] = [
  { name: 'health', register: (app) => healthRoutes(app) },
  { name: 'identity', register: registerIdentity },
  { name: 'data', register: registerData },
  { name: 'pipelines', register: registerPipelines },
  { name: 'audit', register: (app, ctx) => auditRoutes(app, ctx) },
  { name: 'webhooks', register: (app, ctx) => webhooksRoutes(app, ctx) },
  { name: 'reports', register: (app, ctx) => reportsRoutes(app, ctx) },
];
