/**
 * Issue 11 part 8: a hostile-input suite that keeps growing. Property-based (fast-check) over
 * the service's own OpenAPI document and GraphQL schema, against the real service on loopback:
 * random and adversarial path parameters, query strings, bodies, content types and headers for
 * every documented route; random operations and variables for GraphQL; raw request lines and
 * header blocks over a socket. Every answer is 2xx or 4xx, every 4xx carries `{error, code,
 * status}`, nothing is logged as INTERNAL (the test service fails its stop() on any), and the
 * service answers afterwards. Runs are bounded in count and time; a failure prints its seed
 * (re-run with LANEWAY_FC_SEED=<seed>).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawRequest } from '../../helpers/raw-http';
import { startTestService, type TestService } from '../../helpers/test-service';
import { setupAdmin, type Session } from '../identity/helpers';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const seed = process.env.LANEWAY_FC_SEED ? Number(process.env.LANEWAY_FC_SEED) : undefined;
const bounded = (numRuns: number) => ({
  numRuns,
  seed,
  interruptAfterTimeLimit: 60_000,
  markInterruptAsFailure: false,
});

/** Strings an attacker or a careless script sends. */
const adversarial = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1e309',
    '9007199254740993',
    'NaN',
    'null',
    'true',
    '[]',
    '{}',
    '%',
    '%00',
    '%E0%A4%A',
    '../../etc/passwd',
    '..%2f..%2f',
    '<script>',
    "' OR 1=1 --",
    '$(id)',
    'a\nb',
    '\u0000',
    '\uFFFF',
    'x'.repeat(5000),
    // Names every plain object inherits: as keys they once found a member instead of nothing.
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
  ),
  fc.integer().map(String),
);

const jsonValue = fc.oneof(
  { depthSize: 'small' },
  fc.jsonValue(),
  adversarial,
  fc.dictionary(adversarial, fc.jsonValue()),
  fc.integer({ min: 60, max: 3000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
);

interface Route {
  method: string;
  path: string;
}

function expectErrorBody(status: number, text: string, what: string) {
  expect(status, what).toBeLessThan(500);
  if (status < 400) return;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${what}: ${status} without a JSON error body: ${text.slice(0, 200)}`);
  }
  expect(typeof body.error, what).toBe('string');
  expect(typeof body.code, what).toBe('string');
  expect(body.status, what).toBe(status);
}

describe('hostile input, property-based (issue 11 part 8)', () => {
  let service: TestService;
  let admin: Session;
  let routes: Route[];

  beforeAll(async () => {
    service = await startTestService();
    admin = await setupAdmin(service, 'admin');
    const doc = (await (await service.api('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(routes.length).toBeGreaterThan(30);
  });
  afterAll(async () => {
    await service.stop();
  });

  it('every documented route answers random params, queries, bodies and headers with 2xx/4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.array(adversarial, { minLength: 3, maxLength: 3 }),
        fc.dictionary(
          fc.oneof(fc.constantFrom('page', 'per_page', 'status', 'search', 'since', 'cursor'), adversarial),
          adversarial,
          { maxKeys: 4 },
        ),
        fc.option(jsonValue, { nil: undefined }),
        fc.constantFrom(
          'application/json',
          'text/plain',
          'multipart/form-data',
          'application/json; charset=utf-16',
          'x/',
        ),
        fc.constantFrom('valid', 'none', 'garbage'),
        async (pick, params, query, body, contentType, auth) => {
          const route = routes[pick % routes.length]!;
          let i = 0;
          const path = route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[i++ % params.length]!));
          const qs = new URLSearchParams(query).toString();
          const headers: Record<string, string> = {};
          if (auth === 'valid') headers.authorization = `Bearer ${admin.token}`;
          if (auth === 'garbage') headers.authorization = `Bearer ${params[0]!.replace(/[^\x21-\x7e]/g, 'x')}`;
          const sendBody = body !== undefined && route.method !== 'GET';
          if (sendBody) headers['content-type'] = contentType;
          // Never let the suite lock the admin out, delete them or end their sessions.
          if (/\/(logout|password)\b/.test(path) || (route.method === 'DELETE' && /users/.test(path))) return;
          const res = await service.api(`${path}${qs ? `?${qs}` : ''}`, {
            method: route.method,
            headers,
            ...(sendBody ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
          });
          expectErrorBody(res.status, await res.text(), `${route.method} ${path}?${qs}`);
        },
      ),
      bounded(400),
    );
    expect((await service.api('/api/health')).status).toBe(200);
  });

  it('GraphQL answers random operations and variables with 200/400 and a coded error', async () => {
    const fields = ['pipelines { id name }', 'pipeline(id: $id) { id }', 'execution(id: $id) { id status }'];
    const mutations = [
      'runPipeline(input: $input) { id }',
      'cancelExecution(id: $id) { id }',
      'rerunExecution(id: $id, input: $input) { id }',
      'resumeExecution(id: $id) { id }',
    ];
    const operation = fc.oneof(
      fc.constantFrom(...fields).map((f) => `query ($id: ID!, $input: RunPipelineInput) { ${f} }`),
      fc.constantFrom(...mutations).map((f) => `mutation ($id: ID!, $input: RunPipelineInput) { ${f} }`),
      fc.string(),
      fc.constantFrom(
        '{',
        '{ __schema { types { name } } }',
        'subscription { executionUpdates(id: 1) { id } }',
        '{ a'.repeat(500),
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        operation,
        fc.dictionary(fc.constantFrom('id', 'input', 'x'), jsonValue),
        async (query, variables) => {
          const res = await service.api('/api/graphql', {
            method: 'POST',
            headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ query, variables }),
          });
          const text = await res.text();
          expectErrorBody(res.status, text, `graphql ${query.slice(0, 80)}`);
          if (res.status === 200) {
            const out = JSON.parse(text) as { errors?: Array<{ extensions?: { code?: unknown } }> };
            for (const e of out.errors ?? []) expect(typeof e.extensions?.code).toBe('string');
          }
        },
      ),
      bounded(200),
    );
    expect((await service.api('/api/health')).status).toBe(200);
  });

  it('multipart routes answer random forms (any field names, values and parts) with 2xx/4xx', async () => {
    // A form's field names are the client's: one named after an inherited member once ended the
    // service (form-field-names.test.ts has the named cases; this sends any name).
    const fastq = Buffer.from('@r1 1:N:0:ACGTACGT\nACGTACGTAC\n+\nIIIIIIIIII\n');
    const sheet = Buffer.from('Sample Name,Barcode,Organism,Category\nS1,ACGTAC,Homo sapiens,RNA\n');
    const fieldName = fc.oneof(
      fc.constantFrom('filename', 'chunk', 'total_chunks', 'file_id', 'checksum', 'name', 'layout', 'adapter'),
      adversarial.filter((n) => n.length > 0),
    );
    const part = fc.oneof(
      fc.tuple(fc.constant('field' as const), fieldName, adversarial),
      fc.tuple(
        fc.constant('file' as const),
        fc.oneof(fc.constantFrom('file', 'file2', 'annotation', 'index1'), fieldName),
        fc.constantFrom(fastq, sheet, Buffer.alloc(0), Buffer.from([0x1f, 0x8b, 0, 1, 2])),
      ),
    );
    const route = fc.constantFrom('/api/upload', '/api/upload/multiplexed', '/api/data/sheets');
    await fc.assert(
      fc.asyncProperty(route, fc.array(part, { maxLength: 8 }), async (path, parts) => {
        const form = new FormData();
        for (const [kind, name, value] of parts) {
          if (kind === 'field') form.append(name, value);
          else form.append(name, new Blob([new Uint8Array(value)]), name === 'annotation' ? 'a.csv' : 'r.fastq');
        }
        const res = await service.api(path, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin.token}` },
          body: form,
        });
        expectErrorBody(res.status, await res.text(), `${path} ${JSON.stringify(parts.map((p) => p[1]))}`);
      }),
      bounded(150),
    );
    expect((await service.api('/api/health')).status).toBe(200);
  });

  it('raw request lines and header blocks over a socket answer 2xx/4xx with the error body', async () => {
    const port = Number(new URL(service.url).port);
    const target = fc.oneof(
      adversarial.map((s) => `/api/${s}`),
      fc.constantFrom(
        'http://[',
        '*',
        '//',
        '/%',
        '/api/health?%',
        'http://[::1',
        '/api/graphql',
        '/api/data/%E0%A4%A',
      ),
      fc.string({ unit: 'binary', maxLength: 60 }),
    );
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'BREW', 'G E T', '');
    const version = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9', '');
    const header = fc.tuple(
      fc.oneof(
        fc.constantFrom('Upgrade', 'Content-Length', 'Transfer-Encoding', 'Host', 'Authorization', 'Cookie'),
        fc.string({ maxLength: 20 }),
      ),
      adversarial,
    );
    await fc.assert(
      fc.asyncProperty(method, target, version, fc.array(header, { maxLength: 5 }), async (m, t, v, hs) => {
        const head = hs.map(([k, val]) => `${k}: ${val}`).join('\r\n');
        const text = `${m} ${t} ${v}\r\nHost: 127.0.0.1\r\n${head ? `${head}\r\n` : ''}Connection: close\r\n\r\n`;
        const answer = await rawRequest(port, text, 5000);
        // HEAD has no body; an upgrade we take switches protocols (101).
        if (answer.status === null || answer.status === 101 || m === 'HEAD') {
          expect(answer.status === null || answer.status < 500, text).toBe(true);
          return;
        }
        expectErrorBody(answer.status, answer.body, JSON.stringify(text.slice(0, 120)));
      }),
      bounded(300),
    );
    expect((await service.api('/api/health')).status).toBe(200);
  });
});
