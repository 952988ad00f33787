/**
 * One endpoint used once (docs/service/endpoints.md): every /api route registers from its
 * descriptor, and no client call site picks its answer type or writes a path of its own. A grep
 * over the sources, with probes showing that each pattern finds what it is for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestService } from '../../helpers/test-service';
import * as endpoints from '../../../src/shared/service-api/endpoints';
import type { Endpoint } from '../../../src/shared/service-api/endpoint';

const root = resolve(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** A call that names the answer's type or the method and path itself: `get<T>(`, `call('GET', '/api/...`. */
const HAND_PICKED =
  /\.(get|post|put|patch|del|delete|request|call|send)(<[^>(]*>)?\(\s*(['`](GET|POST|PUT|PATCH|DELETE)['`],\s*)?['`]\/api\//;
const TYPED_GET = /\b(client|http|api|core|anon|authed)\.(get|post|put|del|call)<.+>\(/;
/** A route registered with a path of its own instead of its descriptor. */
const OWN_ROUTE = /\.(get|post|put|patch|delete)\(\s*['`]\/api\//;

function offenders(dirs: string[], patterns: RegExp[]): string[] {
  return dirs.flatMap((d) =>
    sourceFiles(join(root, d)).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, i }))
        .filter(({ line }) => patterns.some((p) => p.test(line)))
        .map(({ line, i }) => `${relative(root, file)}:${i + 1}: ${line.trim()}`),
    ),
  );
}

const allEndpoints = (): Endpoint[] => {
  const out: Endpoint[] = [];
  const walk = (v: unknown) => {
    if (v && typeof v === 'object' && 'method' in v && 'path' in v) out.push(v as Endpoint);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(endpoints);
  return out;
};

describe('endpoints are used through their descriptors', () => {
  it('finds a hand-picked call or a route of its own where one is written (the check can fail)', () => {
    expect(HAND_PICKED.test("client.call('GET', '/api/me')")).toBe(true);
    expect(HAND_PICKED.test('client.get<Lane>(`/api/lanes/${id}`)')).toBe(true);
    expect(HAND_PICKED.test("client.post('/api/groups/', form)")).toBe(true);
    expect(TYPED_GET.test("client.get<Page<Sample>>('/samples/', q)")).toBe(true);
    expect(OWN_ROUTE.test("app.get('/api/lanes/:id', { schema }, handler)")).toBe(true);
    expect(HAND_PICKED.test('client.call(getLanesById, { params: { id } })')).toBe(false);
    expect(OWN_ROUTE.test('serve(app, getLanesById, async (request) => {')).toBe(false);
  });

  it('has no call site in the renderer, the core or the CLI that picks its type or its path', () => {
    expect(offenders(['src/renderer', 'src/main', 'src/cli'], [HAND_PICKED, TYPED_GET])).toEqual([]);
  });

  it('registers no /api route with a path of its own (api-routes.test.ts checks the routes themselves)', () => {
    expect(offenders(['src/service'], [OWN_ROUTE])).toEqual([]);
  });

  it('has a descriptor for every route the service serves under /api, and a route for every descriptor', async () => {
    const service = await startTestService();
    try {
      const doc = (await (await service.api('/api/openapi.json')).json()) as { paths: Record<string, object> };
      const served = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      );
      const declared = allEndpoints().map((e) => `${e.method} ${e.path}`);
      const norm = (s: string) => s.replace(/\/$/, '');
      // The OpenAPI document and GraphQL included: they too are descriptors (endpoints/meta.ts).
      expect(new Set(served.map(norm))).toEqual(new Set(declared.map(norm)));
    } finally {
      await service.stop();
    }
  });
});
