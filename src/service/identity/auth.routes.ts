/**
 * Authentication routes: first-account setup, login (refresh cookie + access token), token
 * refresh, the current user, logout and the user's own password change.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { ServiceContext } from '../context';
import { ApiError } from '../http/api-error';
import { requireUser } from '../auth/authenticate';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './cookies';
import { signInWithPassword } from './sign-in';
import { meBody } from './me.presenter';
import { TokenError, issueToken, verifyToken } from '../auth/tokens';
import { changeOwnPassword, createUser } from './users.commands';
import { presentUser } from './users.presenter';
import { refreshTokenActive, revokeRefreshToken } from '../auth/refresh-tokens';
import { userById } from '../auth/users.store';
import {
  getMe,
  getToken,
  postLogin,
  postLogout,
  postSetup,
  putMePassword,
} from '../../shared/service-api/endpoints/auth';
import { serve } from '../http/serve-endpoint';

function iso(ctx: ServiceContext, seconds?: number): string {
  return new Date(seconds === undefined ? ctx.clock.now() : seconds * 1000).toISOString();
}

/** Registers the authentication routes. */
export function authRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const limits = ctx.parts.signIn;
  serve(app, postSetup, async (request, reply) => {
    const b = request.body;
    const row = await createUser(
      ctx,
      {
        username: b.username,
        password: b.password,
        email: b.email,
        name: b.name,
        isAdmin: true,
        canRunPipelines: true,
      },
      true,
    );
    return reply.status(201).send(presentUser(row));
  });

  serve(app, postLogin, async (request, reply) => {
    const { username, password } = request.body;
    const { row, access, refresh } = await signInWithPassword(ctx, username, password, request.ip);
    setRefreshCookie(ctx, request, reply, refresh);
    // Who signed in, and from where: with signin.failed, the log's account of sign-ins.
    ctx.log(`${row.username} signed in from ${request.ip}`, {
      event: 'signin.succeeded',
      user: row.username,
      ip: request.ip,
    });
    return { token: access, user: presentUser(row) };
  });

  /** The user a valid, unrevoked refresh cookie names; throws INVALID_REFRESH_TOKEN otherwise. */
  async function refreshUser(request: FastifyRequest) {
    const cookie = readRefreshCookie(request);
    if (!cookie) throw new ApiError('INVALID_REFRESH_TOKEN', 'No refresh token: log in again');
    try {
      const claims = await verifyToken(ctx, cookie, 'refresh');
      const row = userById(ctx.db, claims.userId);
      if (!row || row.disabled || !refreshTokenActive(ctx, claims.jti, claims.userId)) {
        throw new TokenError('token revoked');
      }
      return { row, claims };
    } catch (err) {
      if (err instanceof TokenError)
        throw new ApiError('INVALID_REFRESH_TOKEN', `Refresh token refused (${err.message}): log in again`);
      throw err;
    }
  }

  serve(app, getToken, async (request) => {
    const { row } = await refreshUser(request);
    return { token: (await issueToken(ctx, row.id, 'access')).token };
  });

  serve(app, postLogout, async (request, reply) => {
    try {
      const { claims } = await refreshUser(request);
      revokeRefreshToken(ctx, claims.jti, iso(ctx));
    } catch (err) {
      // Logging out without a valid cookie still clears it: the goal state is reached.
      if (!(err instanceof ApiError)) throw err;
    }
    clearRefreshCookie(ctx, request, reply);
    return reply.status(204).send();
  });

  serve(app, getMe, async (request) => meBody(ctx, requireUser(request)));

  serve(app, putMePassword, async (request, reply) => {
    const user = requireUser(request);
    const b = request.body;
    // The current password is a credential like any other: a stolen access token must not
    // become an unlimited password oracle.
    limits.begin(user.username, request.ip);
    let row;
    try {
      row = await changeOwnPassword(ctx, user.id, b.current_password, b.new_password);
    } catch (err) {
      const fields = err instanceof ApiError ? (err.extras.fields as Record<string, string> | undefined) : undefined;
      if (fields?.current_password) limits.fail(user.username, request.ip);
      throw err;
    }
    limits.succeed(user.username, request.ip);
    clearRefreshCookie(ctx, request, reply);
    return presentUser(row);
  });
}
