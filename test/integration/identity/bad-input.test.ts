/**
 * A generated table of malformed requests, built from the OpenAPI document so that every
 * route (also those added later by other areas) is covered: malformed JSON, wrong JSON types,
 * unknown fields, wrong content types, oversized bodies, bad path and query values, missing
 * or broken authentication. No request may answer 500, and every error is `{error, code, status}`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, setupAdmin, type Session } from './helpers';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  items?: JsonSchema;
  maxLength?: number;
}

interface Operation {
  parameters?: Array<{ name: string; in: string; schema?: JsonSchema }>;
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}

interface Case {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  /** Statuses this case must answer with; any 4xx when absent. */
  expect?: number[];
}

const typesOf = (s: JsonSchema | undefined): string[] => (s?.type === undefined ? [] : ([] as string[]).concat(s.type));

/** A value of a type the property's schema does not allow. */
function wrongValue(schema: JsonSchema): unknown {
  const types = typesOf(schema);
  if (types.includes('string') && schema.enum) return types.includes('integer') ? { x: 1 } : 'not-one-of-the-choices';
  if (types.includes('string')) return { not: 'a string' };
  if (types.includes('integer') || types.includes('number')) return '12';
  if (types.includes('boolean')) return 'true';
  if (types.includes('array')) return 'not-an-array';
  if (types.includes('object')) return ['not', 'an', 'object'];
  return undefined;
}

function fillPath(path: string, op: Operation, value: (schema: JsonSchema | undefined) => string): string {
  return path.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => {
    const p = op.parameters?.find((x) => x.in === 'path' && x.name === name);
    return encodeURIComponent(value(p?.schema));
  });
}

/** Builds every malformed case for one operation. */
function casesFor(method: string, path: string, op: Operation, token: string): Case[] {
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const good = fillPath(path, op, (s) => (typesOf(s).includes('integer') ? '1' : 'x'));
  const cases: Case[] = [];
  const label = `${method} ${path}`;
  const hasBody = method !== 'GET' && method !== 'DELETE';

  // Path parameters out of range or of the wrong kind.
  for (const bad of ['abc', '-1', '0', '1.5', '99999999999999999999999', '%00', '..%2F..%2Fetc', 'x'.repeat(90)]) {
    if (!/\{/.test(path)) break;
    const p = path.replace(/\{([A-Za-z_]+)\}/g, bad);
    cases.push({
      name: `${label} path=${bad.slice(0, 20)}`,
      method,
      path: p,
      headers: hasBody ? json : auth,
      body: hasBody ? '{}' : undefined,
    });
  }
  // Query strings: paging out of bounds, wrong types, unknown keys.
  if (method === 'GET') {
    for (const q of [
      'page=0',
      'page=abc',
      'per_page=101',
      'per_page=-5',
      'unread=maybe',
      'nope=1',
      'page=1&page=2',
      'after=%FF',
    ]) {
      cases.push({ name: `${label} ?${q}`, method, path: `${good}?${q}`, headers: auth });
    }
  }
  // No token, a broken token, a non-Bearer scheme.
  cases.push({
    name: `${label} no auth`,
    method,
    path: good,
    headers: hasBody ? { 'content-type': 'application/json' } : {},
    body: hasBody ? '{}' : undefined,
  });
  cases.push({ name: `${label} broken token`, method, path: good, headers: { authorization: 'Bearer not.a.jwt' } });
  cases.push({ name: `${label} basic auth`, method, path: good, headers: { authorization: 'Basic eDp5' } });
  if (!hasBody) return cases;

  // Bodies: malformed JSON, JSON that is not an object, wrong media types, an oversized body.
  const bodies: Array<[string, Record<string, string>, string | Uint8Array<ArrayBuffer>, number[]?]> = [
    ['malformed JSON', json, '{"a":', [400]],
    ['truncated unicode', json, '{"name":"\\ud83', [400]],
    ['JSON array', json, '[1,2,3]'],
    ['JSON null', json, 'null'],
    ['JSON string', json, '"text"'],
    ['deeply nested', json, `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['text/plain', { ...auth, 'content-type': 'text/plain' }, 'hello'],
    ['application/xml', { ...auth, 'content-type': 'application/xml' }, '<a/>'],
    ['form-urlencoded', { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
    ['multipart without boundary', { ...auth, 'content-type': 'multipart/form-data' }, '--x\r\n'],
    [
      'multipart garbage',
      { ...auth, 'content-type': 'multipart/form-data; boundary=zz' },
      '--zz\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
    ],
    ['binary', { ...auth, 'content-type': 'application/octet-stream' }, new Uint8Array([0, 1, 2, 255])],
    ['oversized JSON', json, JSON.stringify({ name: 'a'.repeat(2 * 1024 * 1024) }), [413]],
  ];
  for (const [what, headers, body, expectStatus] of bodies) {
    cases.push({ name: `${label} ${what}`, method, path: good, headers, body, expect: expectStatus });
  }

  // Schema-driven cases: an unknown field, and each property with a wrong type or too long.
  const schema = op.requestBody?.content['application/json']?.schema;
  if (schema?.properties) {
    if (schema.additionalProperties === false) {
      cases.push({
        name: `${label} unknown field`,
        method,
        path: good,
        headers: json,
        body: JSON.stringify({ __unknown_field__: 1 }),
        expect: [400],
      });
    }
    for (const [prop, propSchema] of Object.entries(schema.properties)) {
      const wrong = wrongValue(propSchema);
      if (wrong !== undefined) {
        cases.push({
          name: `${label} ${prop}: wrong type`,
          method,
          path: good,
          headers: json,
          body: JSON.stringify({ [prop]: wrong }),
          expect: [400],
        });
      }
      if (typesOf(propSchema).includes('string') && propSchema.maxLength !== undefined) {
        const long = 'x'.repeat(propSchema.maxLength + 1);
        cases.push({
          name: `${label} ${prop}: too long`,
          method,
          path: good,
          headers: json,
          body: JSON.stringify({ [prop]: long }),
          expect: [400],
        });
      }
      if (typesOf(propSchema).includes('array') && propSchema.items) {
        const wrongItem = wrongValue(propSchema.items);
        if (wrongItem !== undefined) {
          cases.push({
            name: `${label} ${prop}[0]: wrong type`,
            method,
            path: good,
            headers: json,
            body: JSON.stringify({ [prop]: [wrongItem] }),
            expect: [400],
          });
        }
      }
    }
  }
  return cases;
}

describe('bad input on every route of the OpenAPI document: 4xx with the error body, never 500', () => {
  let service: TestService;
  let admin: Session;
  let user: Session;
  let doc: { paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    service = await startTestService();
    admin = await setupAdmin(service);
    user = await addUser(service, admin, 'plain');
    // Something to aim at, so that handlers past validation run too.
    await call(service, 'POST', '/api/groups/', { token: user.token, body: { name: 'x' } });
    await call(service, 'POST', '/api/projects/', { token: user.token, body: { name: 'p' } });
    doc = (await (await service.api('/api/openapi.json')).json()) as typeof doc;
  });
  afterAll(async () => {
    // stop() fails the file if the service logged any INTERNAL error.
    await service.stop();
  });

  it('covers the identity routes at least (the table is not empty)', () => {
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/groups/{slug}/invite/', '/api/projects/{id}/share/']),
    );
  });

  it('answers every malformed request with a 4xx error body', async () => {
    const failures: string[] = [];
    let count = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const token of [user.token, admin.token]) {
          for (const c of casesFor(method.toUpperCase(), path, op, token)) {
            count++;
            const res = await service.api(c.path, { method: c.method, headers: c.headers, body: c.body });
            const text = await res.text();
            let body: Record<string, unknown> = {};
            if (res.status >= 400) {
              // Success bodies may be files (xlsx, downloads); error bodies are always JSON.
              try {
                body = JSON.parse(text) as Record<string, unknown>;
              } catch {
                failures.push(`${c.name}: ${res.status} with a non-JSON error body: ${text.slice(0, 100)}`);
                continue;
              }
            }
            if (res.status >= 500) failures.push(`${c.name}: ${res.status} ${text.slice(0, 200)}`);
            else if (c.expect && !c.expect.includes(res.status))
              failures.push(`${c.name}: ${res.status}, expected ${c.expect.join('/')} ${text.slice(0, 200)}`);
            if (res.status >= 400) {
              const shaped =
                typeof body.error === 'string' && typeof body.code === 'string' && body.status === res.status;
              if (!shaped) failures.push(`${c.name}: ${res.status} without the error body: ${text.slice(0, 200)}`);
            }
          }
        }
      }
    }
    expect(count).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 180_000);

  // Fastify answers these two from its router, before any hook or error handler, unless the
  // server is built with a `frameworkErrors` option (src/service/server.ts).
  it('answers router-level failures (a too-long path parameter, broken percent-encoding) with the error body', async () => {
    const failures: string[] = [];
    for (const path of [
      `/api/projects/${'9'.repeat(300)}`,
      `/api/groups/${'x'.repeat(300)}/`,
      '/api/groups/%E0%A4%A/',
    ]) {
      const res = await service.api(path, { headers: { authorization: `Bearer ${user.token}` } });
      const body = (await res.json()) as Record<string, unknown>;
      const shaped = typeof body.error === 'string' && typeof body.code === 'string' && body.status === res.status;
      if (res.status >= 500 || res.status < 400 || !shaped)
        failures.push(`${path.slice(0, 40)}: ${res.status} ${JSON.stringify(body)}`);
    }
    expect(failures).toEqual([]);
  });
});
