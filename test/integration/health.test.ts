import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../../src/shared/version';
import { startTestService, type TestService } from '../helpers/test-service';

describe('service: health, unknown routes and the error body', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  it('answers GET /api/health without authentication', async () => {
    const res = await service.api('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', version: APP_VERSION, setup_open: true });
  });

  it('says setup_open until the first account exists, then no longer', async () => {
    const setup = await service.api('/api/setup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'first', password: 'first-password', email: 'f@lab.test', name: 'First' }),
    });
    expect(setup.status).toBe(201);
    expect(await (await service.api('/api/health')).json()).toEqual({
      status: 'ok',
      version: APP_VERSION,
      setup_open: false,
    });
  });

  it('serves the same path with a trailing slash, never a redirect', async () => {
    const res = await service.api('/api/health/', { redirect: 'manual' });
    expect(res.status).toBe(200);
  });

  it('answers unknown routes with the spec error body', async () => {
    for (const [method, path] of [
      ['GET', '/api/does-not-exist'],
      ['DELETE', '/api/health'],
      ['GET', '/'],
      ['GET', '/api/../../etc/passwd'],
    ] as const) {
      const res = await service.api(path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ code: 'NOT_FOUND', status: 404 });
      expect(typeof body.error).toBe('string');
    }
  });

  it('refuses malformed JSON and wrong content types with 400, oversized bodies with 413', async () => {
    const bad = await service.api('/api/health', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    expect([400, 404]).toContain(bad.status);
    expect(((await bad.json()) as { code: string }).code).toMatch(/VALIDATION_ERROR|NOT_FOUND/);
    const huge = await service.api('/api/does-not-exist', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 'a'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });

  it('serves an OpenAPI 3.1 document naming every route', async () => {
    const res = await service.api('/api/openapi.json');
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/health']?.get).toBeDefined();
    expect(doc.paths['/api/openapi.json']?.get).toBeDefined();
  });

  it('answers CORS preflights for the renderer without allowing credentials', async () => {
    const res = await service.api('/api/health', {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:5555', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
