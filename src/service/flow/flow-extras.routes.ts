/**
 * The remaining reads of FLOW-WIRE.md §5 and P1-12 that agents make with `flowbio api get`:
 * `/projects/{id}/executions`, `/users/search`, and `/data/{id}/contents?position=n` (a text
 * file's contents in pages of 10,000 bytes, `{contents, has_more}`; 400 for binary data).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { searchUsers } from '../auth/users.store';
import type { ServiceContext } from '../context';
import { dataFilePath } from '../data/data.commands';
import { getDataRow } from '../data/data.store';
import { requireAccess } from '../policy/policy';
import { flowUser } from './flow-auth';
import { badRequest } from './flow-errors';
import { flowExecutionsOfRoute } from './flow-executions-of';
import { flowSchema } from './flow-openapi';
import { FlowAnyObject, flowEnvelope, FlowIdParams, FlowPageQuery } from './flow.schemas';

/** The page size of `/data/{id}/contents`. */
export const CONTENTS_PAGE = 10_000;

const UsersQuery = Type.Intersect([
  FlowPageQuery,
  Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: true }),
]);
const ContentsQuery = Type.Object(
  { position: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }) },
  { additionalProperties: true },
);

/** True when the bytes look like text (no NUL, not gzip). */
function looksBinary(bytes: Buffer): boolean {
  return (bytes[0] === 0x1f && bytes[1] === 0x8b) || bytes.includes(0);
}

export function flowExtraRoutes(scope: FastifyInstance, ctx: ServiceContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  flowExecutionsOfRoute(scope, ctx, 'project', "Executions on a project's samples");

  app.get(
    '/users/search',
    {
      schema: flowSchema({
        summary: 'Accounts by name or username (name filters; enabled accounts only)',
        querystring: UsersQuery,
        response: { 200: flowEnvelope('users') },
      }),
    },
    async (request) => {
      flowUser(request);
      const q = request.query as { page: number; count: number; name?: string };
      const rows = searchUsers(ctx.db, q.name ?? '', { page: q.page, per_page: q.count });
      return {
        count: rows.count,
        page: q.page,
        users: rows.items.map((u) => ({ id: String(u.id), username: u.username, name: u.name, image: null })),
      };
    },
  );

  app.get(
    '/data/:id/contents',
    {
      schema: flowSchema({
        summary: "A text file's contents, in pages of 10,000 bytes (position is the page, from 0)",
        params: FlowIdParams,
        querystring: ContentsQuery,
        response: { 200: FlowAnyObject },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const id = Number(request.params.id);
      requireAccess(ctx.db, 'data', id, user, 'view');
      getDataRow(ctx, id);
      const path = dataFilePath(ctx, id);
      const size = statSync(path).size;
      const start = request.query.position * CONTENTS_PAGE;
      const fd = openSync(path, 'r');
      try {
        const head = Buffer.alloc(Math.min(size, 512));
        readSync(fd, head, 0, head.length, 0);
        if (looksBinary(head)) throw badRequest('This file is binary: download it instead');
        const page = Buffer.alloc(Math.max(0, Math.min(CONTENTS_PAGE, size - start)));
        if (page.length) readSync(fd, page, 0, page.length, start);
        return { contents: page.toString('utf8'), has_more: start + page.length < size };
      } finally {
        closeSync(fd);
      }
    },
  );
}
