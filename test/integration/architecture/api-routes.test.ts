/**
 * Every /api route comes from an endpoint descriptor (src/shared/service-api/endpoints) through
 * `serve()`, and every descriptor is served exactly once: the path, the schemas and the answer
 * type the clients call cannot differ from what the service registers. Routes are enumerated
 * with fastify's onRoute hook as the service registers them; `serve()` puts the descriptor
 * itself on the route's config, so a route written by hand at a descriptor's path is caught too.
 */
import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../../src/shared/service-api/endpoint';
import * as endpoints from '../../../src/shared/service-api/endpoints';
import { startTestService } from '../../helpers/test-service';

/** The descriptors a module exports, also those grouped in an object (the share endpoints, one set per kind). */
function descriptorsIn(value: unknown): Endpoint[] {
  if (typeof value !== 'object' || value === null) return [];
  if (typeof (value as Endpoint).operationId === 'string') return [value as Endpoint];
  return Object.values(value).flatMap(descriptorsIn);
}

const DESCRIPTORS = descriptorsIn({ ...endpoints });

interface SeenRoute {
  method: string;
  url: string;
  endpoint: unknown;
}

function seen(route: RouteOptions): SeenRoute[] {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const endpoint = (route.config as { endpoint?: unknown } | undefined)?.endpoint;
  return methods.map((method) => ({ method, url: route.url, endpoint }));
}

/** /api routes not registered from a descriptor of the list (HEAD and OPTIONS are fastify's own). */
function handWritten(routes: SeenRoute[], descriptors: readonly Endpoint[]): string[] {
  return routes
    .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .filter((r) => {
      const e = r.endpoint as Endpoint | undefined;
      return !(e && descriptors.includes(e) && e.method === r.method && e.path === r.url);
    })
    .map((r) => `${r.method} ${r.url}`);
}

describe('every /api route comes from a descriptor', () => {
  it('finds a route written by hand (the check can fail)', () => {
    const [a] = DESCRIPTORS as [Endpoint];
    const fromDescriptor = { method: a.method, url: a.path, endpoint: a };
    expect(handWritten([fromDescriptor], DESCRIPTORS)).toEqual([]);
    // By hand at a path no descriptor has, and by hand at a descriptor's own path.
    expect(handWritten([{ method: 'GET', url: '/api/extra', endpoint: undefined }], DESCRIPTORS)).toEqual([
      'GET /api/extra',
    ]);
    expect(handWritten([{ ...fromDescriptor, endpoint: undefined }], DESCRIPTORS)).toHaveLength(1);
    // A descriptor of another operation, or a copy that is not in the list.
    const other = DESCRIPTORS.find((e) => e.path !== a.path)!;
    expect(handWritten([{ ...fromDescriptor, endpoint: other }], DESCRIPTORS)).toHaveLength(1);
    expect(handWritten([{ ...fromDescriptor, endpoint: { ...a } }], DESCRIPTORS)).toHaveLength(1);
    // Not the API's: the Flow mount, and fastify's own HEAD.
    expect(handWritten([{ method: 'GET', url: '/flow/api/health', endpoint: undefined }], DESCRIPTORS)).toEqual([]);
    expect(handWritten([{ method: 'HEAD', url: '/api/health', endpoint: undefined }], DESCRIPTORS)).toEqual([]);
  });

  it('registers every /api route from its descriptor, and every descriptor once', async () => {
    const routes: SeenRoute[] = [];
    const service = await startTestService({ onRoute: (route) => routes.push(...seen(route)) });
    try {
      expect(routes.length).toBeGreaterThan(DESCRIPTORS.length);
      expect(handWritten(routes, DESCRIPTORS)).toEqual([]);
      const served = routes.filter((r) => r.method !== 'HEAD').map((r) => r.endpoint);
      const unserved = DESCRIPTORS.filter((e) => !served.includes(e)).map((e) => e.operationId);
      expect(unserved).toEqual([]);
      const twice = DESCRIPTORS.filter((e) => served.filter((s) => s === e).length > 1).map((e) => e.operationId);
      expect(twice).toEqual([]);
      // The two that were registered by hand before: the document and GraphQL.
      for (const e of [endpoints.getOpenApi, endpoints.postGraphql]) {
        expect(
          routes.some((r) => r.endpoint === e && r.method === e.method && r.url === e.path),
          e.path,
        ).toBe(true);
      }
      expect((await service.api('/api/openapi.json')).status).toBe(200);
    } finally {
      await service.stop();
    }
  });
});
