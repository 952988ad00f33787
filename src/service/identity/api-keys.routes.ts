/**
 * /api/api-keys: create (the key shown once), list, read and revoke API keys. Your own keys;
 * an administrator sees and revokes anyone's (`all=true` or `user=` on the list). Keys are
 * created only by a signed-in session, not by another key, so a leaked key cannot mint more.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type ApiKey as ApiKeyBody } from '../../shared/service-api/api-keys';

import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { errors } from '../http/api-error';
import { createApiKey, displayPrefix, loadApiKey, revokeApiKey } from './api-keys.commands';
import { apiKeysPage, type ApiKeyRow } from '../auth/api-keys.store';
import { requireCredential, requireUser } from '../auth/authenticate';
import { userByUsername } from '../auth/users.store';
import {
  deleteApiKeysById,
  getApiKeys,
  getApiKeysById,
  postApiKeys,
} from '../../shared/service-api/endpoints/api-keys';
import { serve } from '../http/serve-endpoint';

/** The API's view of a key row (never its hash or lookup part). */
export function presentApiKey(row: ApiKeyRow, key?: string): ApiKeyBody {
  return {
    id: row.id,
    name: row.name,
    prefix: displayPrefix(row.lookup),
    user: row.username,
    user_id: row.user_id,
    created: row.created,
    last_used: row.last_used,
    expires: row.expires,
    revoked: row.revoked,
    ...(key ? { key } : {}),
  };
}

/** Registers the API key routes. */
export function apiKeysRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  serve(app, postApiKeys, async (request, reply) => {
    const credential = requireCredential(request);
    if (credential.apiKeyId !== null) {
      throw errors.permissionDenied('An API key cannot create API keys: sign in with your password');
    }
    const { row, key } = createApiKey(ctx, credential.user, request.body);
    return reply.status(201).send(presentApiKey(row, key));
  });

  serve(app, getApiKeys, async (request) => {
    const user = requireUser(request);
    const q = request.query;
    let owner: number | null = user.id;
    if (q.all || q.user !== undefined) {
      if (!user.isAdmin) throw errors.permissionDenied("Only an administrator can list other users' API keys");
      owner = null;
      if (q.user !== undefined) {
        const row = userByUsername(ctx.db, q.user);
        if (!row) throw errors.notFound('User');
        owner = row.id;
      }
    }
    return mapPage(apiKeysPage(ctx.db, owner, q.include_revoked ?? false, q), (r) => presentApiKey(r));
  });

  serve(app, getApiKeysById, async (request) =>
    presentApiKey(loadApiKey(ctx, requireUser(request), request.params.id)),
  );

  serve(app, deleteApiKeysById, async (request) => {
    const user = requireUser(request);
    return presentApiKey(revokeApiKey(ctx, user, loadApiKey(ctx, user, request.params.id)));
  });
}
