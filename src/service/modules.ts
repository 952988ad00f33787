/**
 * The service's feature modules in registration order. Each area adds one line here and keeps
 * its routes, commands and presenters in its own folder.
 */
import type { FastifyInstance } from 'fastify';
import { templateRoutes } from './sheets/template.routes';
import { auditRoutes } from './audit/audit.routes';
import type { ServiceContext } from './context';
import { dataRoutes } from './data/data.routes';
import { executionsRoutes } from './executions/executions.routes';
import { rerunResumeRoutes } from './executions/rerun-resume.routes';
import { runRoutes } from './executions/run.routes';
import { graphqlRoutes } from './graphql/graphql.routes';
import { groupsRoutes } from './groups/groups.routes';
import { healthRoutes } from './health/health.routes';
import { apiKeysRoutes } from './identity/api-keys.routes';
import { authRoutes } from './identity/auth.routes';
import { installAuthentication } from './auth/authenticate';
import { usersRoutes } from './identity/users.routes';
import { resumeLanes } from './lanes/lane-runner';
import { laneRoutes } from './lanes/lanes.routes';
import { notificationsRoutes } from './notifications/notifications.routes';
import { pipelinesRoutes } from './pipelines/pipelines.routes';
import { projectsRoutes } from './projects/projects.routes';
import { sampleRoutes } from './samples/samples.routes';
import { sharesRoutes } from './shares/shares.routes';
import { startUploadMaintenance } from './uploads/upload-maintenance';
import { uploadRoutes } from './uploads/uploads.routes';
import { vocabularyRoutes } from './vocabularies/vocabularies.routes';
import { reportsRoutes } from './reports/reports.routes';
import { webhooksRoutes } from './webhooks/webhooks.routes';
import { flowMount } from './flow/flow.plugin';
import { settingsRoutes } from './settings/settings.routes';

export interface ServiceModule {
  name: string;
  register(app: FastifyInstance, ctx: ServiceContext): void | Promise<void>;
}

export const modules: readonly ServiceModule[] = [
  { name: 'health', register: (app, ctx) => healthRoutes(app, ctx) },
  // Authentication comes before every module whose routes call requireUser.
  { name: 'authentication', register: (app, ctx) => installAuthentication(app, ctx) },
  { name: 'auth', register: (app, ctx) => authRoutes(app, ctx) },
  { name: 'users', register: (app, ctx) => usersRoutes(app, ctx) },
  { name: 'api-keys', register: (app, ctx) => apiKeysRoutes(app, ctx) },
  { name: 'groups', register: (app, ctx) => groupsRoutes(app, ctx) },
  { name: 'notifications', register: (app, ctx) => notificationsRoutes(app, ctx) },
  { name: 'shares', register: (app, ctx) => sharesRoutes(app, ctx) },
  { name: 'projects', register: (app, ctx) => projectsRoutes(app, ctx) },
  { name: 'uploads', register: (app, ctx) => uploadRoutes(app, ctx) },
  { name: 'data', register: (app, ctx) => dataRoutes(app, ctx) },
  { name: 'vocabularies', register: (app) => vocabularyRoutes(app) },
  { name: 'samples', register: (app, ctx) => sampleRoutes(app, ctx) },
  { name: 'lanes', register: (app, ctx) => laneRoutes(app, ctx) },
  { name: 'annotation', register: (app) => templateRoutes(app) },
  { name: 'upload-maintenance', register: (_app, ctx) => startUploadMaintenance(ctx) },
  { name: 'lane-runner', register: (_app, ctx) => resumeLanes(ctx) },
  { name: 'pipelines', register: (app, ctx) => pipelinesRoutes(app, ctx.parts.pipelines.catalogue) },
  { name: 'runs', register: (app, ctx) => runRoutes(app, ctx, ctx.parts.pipelines) },
  { name: 'executions', register: (app, ctx) => executionsRoutes(app, ctx, ctx.parts.pipelines) },
  { name: 'rerun-resume', register: (app, ctx) => rerunResumeRoutes(app, ctx, ctx.parts.pipelines) },
  { name: 'graphql', register: (app, ctx) => void graphqlRoutes(app, ctx, ctx.parts.pipelines) },
  { name: 'audit', register: (app, ctx) => auditRoutes(app, ctx) },
  { name: 'webhooks', register: (app, ctx) => webhooksRoutes(app, ctx) },
  { name: 'reports', register: (app, ctx) => reportsRoutes(app, ctx) },
  // Flow's wire at /flow/api, over the same commands and stores (docs/service/flow-mount.md).
  { name: 'flow-mount', register: (app, ctx) => flowMount(app, ctx, ctx.parts.pipelines) },
  { name: 'settings', register: (app, ctx) => settingsRoutes(app, ctx) },
];
