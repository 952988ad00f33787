/** POST /login, GET /token, GET /me and POST /logout in Flow's shapes. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { meBody } from '../identity/me.presenter';
import { flowUser } from './flow-auth';
import { clearFlowCookie, readFlowCookie, setFlowCookie } from './flow-cookie';
import { flowSchema } from './flow-openapi';
import { flowLogIn, flowLogOut, flowRefresh } from './flow-session';
import { FlowLoginBody, FlowMe, FlowTokenAnswer } from './flow.schemas';

function userSummary(user: AuthUser) {
  return { id: String(user.id), username: user.username, name: user.name, is_admin: user.isAdmin };
}

export function flowAuthRoutes(scope: FastifyInstance, ctx: ServiceContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    `/login`,
    {
      schema: flowSchema({
        summary: 'Sign in: answers an access token and sets the flow_refresh_token cookie; bad credentials are a 400',
        security: [],
        body: FlowLoginBody,
        response: { 200: FlowTokenAnswer },
      }),
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const session = await flowLogIn(ctx, username, password, request.ip);
      setFlowCookie(ctx, request, reply, session.refresh);
      return { token: session.access, user: userSummary(session.user) };
    },
  );

  app.get(
    `/token`,
    {
      schema: flowSchema({
        summary: 'A new access token for the refresh cookie (the Authorization header is ignored); 400 without one',
        security: [],
        response: { 200: FlowTokenAnswer },
      }),
    },
    async (request) => {
      const { access, user } = await flowRefresh(ctx, readFlowCookie(request));
      return { token: access, user: userSummary(user) };
    },
  );

  app.post(
    `/logout`,
    { schema: flowSchema({ summary: 'Revoke the refresh token in the cookie and clear it', security: [] }) },
    async (request, reply) => {
      await flowLogOut(ctx, readFlowCookie(request));
      clearFlowCookie(ctx, request, reply);
      return reply.send({});
    },
  );

  app.get(
    `/me`,
    { schema: flowSchema({ summary: 'The signed-in user (a bad token is a 401)', response: { 200: FlowMe } }) },
    async (request) => {
      const user = flowUser(request);
      const me = meBody(ctx, user);
      return {
        id: String(me.id),
        username: me.username,
        name: me.name,
        email: me.email,
        image: null,
        is_admin: me.is_admin,
        can_run_pipelines: me.can_run_pipelines,
        can_impersonate: false,
        has_ssh_key: false,
        impersonator: null,
        features: {},
        memberships: me.groups.map((g) => ({ name: g.name, slug: g.slug, is_admin: g.role === 'admin' })),
        notifications: { count: 0, unread_count: 0, notifications: [] },
      };
    },
  );
}
