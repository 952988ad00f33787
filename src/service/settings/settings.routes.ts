/**
 * The admin's settings and storage report: GET/PUT /api/admin/settings, GET /api/admin/storage
 * (free space of the data folder's disk, and the users storing the most). Admins only.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

import type { ServiceContext } from '../context';
import { freeBytes } from '../storage/disk-space';
import { requireAdmin } from '../auth/authenticate';
import { statfsSync } from 'node:fs';
import { readSettings, writeSettings } from './settings.store';
import { largestUsers } from './storage-usage.store';
import { getAdminSettings, getAdminStorage, putAdminSettings } from '../../shared/service-api/endpoints/settings';
import { serve } from '../http/serve-endpoint';

function totalBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return s.blocks * s.bsize;
  } catch {
    return null;
  }
}

export function settingsRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  serve(app, getAdminSettings, async (request) => {
    requireAdmin(request);
    return readSettings(ctx.db);
  });

  serve(app, putAdminSettings, async (request) => {
    requireAdmin(request);
    return writeSettings(ctx.db, request.body);
  });

  serve(app, getAdminStorage, async (request) => {
    requireAdmin(request);
    const quota = readSettings(ctx.db).upload_quota_bytes;
    return {
      free_bytes: freeBytes(ctx.config.dataDir),
      total_bytes: totalBytes(ctx.config.dataDir),
      largest_users: largestUsers(ctx.db, 10).map((u) => ({ ...u, quota_bytes: quota })),
    };
  });
}
