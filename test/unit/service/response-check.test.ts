/**
 * Response validation in test runs (src/service/http/response-check.ts): a route registered from
 * its descriptor whose handler answers something else than the descriptor's response schema gets
 * a 500 INTERNAL with the route and the field in the log, never a quietly trimmed answer.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { op } from '../../../src/shared/service-api/endpoint';
import { installErrorHandling } from '../../../src/service/http/error-handler';
import { closedSchema } from '../../../src/service/http/response-check';
import { serve } from '../../../src/service/http/serve-endpoint';
import { installValidation } from '../../../src/service/http/validation';

const Thing = Type.Object({ id: Type.Integer(), name: Type.String(), note: Type.Optional(Type.String()) });
const getThing = op({
  method: 'GET',
  path: '/api/things/:id',
  operationId: 'getThing',
  summary: 'A thing',
  tags: ['test'],
  params: Type.Object({ id: Type.Integer() }),
  response: { 200: Thing },
});

/** What each id answers: right, a field missing, a field of the wrong type, a field the schema lacks. */
const answers: Record<number, unknown> = {
  1: { id: 1, name: 'right' },
  2: { id: 2 },
  3: { id: 'three', name: 'wrong type' },
  4: { id: 4, name: 'extra', secret: 'not in the schema' },
};

let app: FastifyInstance;
let logged: string[];
const before = process.env.LANEWAY_VALIDATE_RESPONSES;

async function build(validate: boolean): Promise<void> {
  if (validate) process.env.LANEWAY_VALIDATE_RESPONSES = '1';
  else delete process.env.LANEWAY_VALIDATE_RESPONSES;
  logged = [];
  app = Fastify();
  installValidation(app);
  installErrorHandling(app, (m) => void logged.push(m));
  // The handler is deliberately wrong for ids 2 to 4: it answers whatever the table holds.
  serve(app, getThing, async (request) => answers[request.params.id] as never);
  await app.ready();
}

describe('response validation against the descriptor', () => {
  beforeEach(() => (logged = []));
  afterEach(async () => {
    await app.close();
    if (before === undefined) delete process.env.LANEWAY_VALIDATE_RESPONSES;
    else process.env.LANEWAY_VALIDATE_RESPONSES = before;
  });

  it('lets an answer that fits through unchanged', async () => {
    await build(true);
    const res = await app.inject({ method: 'GET', url: '/api/things/1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 1, name: 'right' });
    expect(logged).toEqual([]);
  });

  it.each([
    [2, /\/: must have required property 'name'/],
    [3, /\/id: must be integer/],
    [4, /\/: field secret is not in the schema/],
  ])('turns answer %i, which does not fit, into a logged 500 INTERNAL', async (id, problem) => {
    await build(true);
    const res = await app.inject({ method: 'GET', url: `/api/things/${id}` });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'INTERNAL', status: 500 });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^INTERNAL GET \/api\/things\//);
    expect(logged[0]).toContain('GET /api/things/:id (200) does not fit its response schema');
    expect(logged[0]).toMatch(problem);
  });

  it('is off outside test runs: fastify trims the extra field and sends what it has', async () => {
    await build(false);
    const extra = await app.inject({ method: 'GET', url: '/api/things/4' });
    expect(extra.statusCode).toBe(200);
    expect(extra.json()).toEqual({ id: 4, name: 'extra' });
    expect(logged).toEqual([]);
  });
});

describe('closedSchema', () => {
  it('closes objects that say nothing about other properties, and leaves open ones and intersections alone', () => {
    const open = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true };
    const nested = {
      type: 'object',
      properties: { inner: { type: 'object', properties: { b: { type: 'integer' } } } },
    };
    const both = {
      allOf: [
        { type: 'object', properties: { a: {} } },
        { type: 'object', properties: { b: {} } },
      ],
    };
    expect(closedSchema(open)).toEqual(open);
    expect(closedSchema(nested)).toEqual({
      type: 'object',
      properties: {
        inner: { type: 'object', properties: { b: { type: 'integer' } }, additionalProperties: false },
      },
      additionalProperties: false,
    });
    expect(closedSchema(both)).toEqual(both);
  });
});
