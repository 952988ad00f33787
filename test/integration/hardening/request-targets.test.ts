/**
 * Issue 11 row 1: an unauthenticated `GET http://[ HTTP/1.1` with `Upgrade: websocket` made
 * `new URL` throw in the GraphQL upgrade listener and ended `laneway serve`. Raw sockets send
 * exactly those bytes to the real `laneway serve` process.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawRequest } from '../../helpers/raw-http';
import { startServeProcess, type ServeProcess } from '../../helpers/serve-process';

// A real process on a shared two-core machine: allow for a slow start.
vi.setConfig({ hookTimeout: 120_000 });

describe('laneway serve survives malformed request targets (issue 11 row 1)', () => {
  let serve: ServeProcess;
  let url: string;
  let port: number;

  beforeAll(async () => {
    serve = await startServeProcess();
    ({ url, port } = serve);
  });
  afterAll(async () => {
    await serve.stop();
  });

  const upgrade = (target: string) =>
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';

  it('answers `GET http://[` with Upgrade: websocket with a 400 error body and keeps serving', async () => {
    const answer = await rawRequest(port, upgrade('http://['));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(serve.cli.child.exitCode).toBeNull();
  });

  it('refuses upgrades on other paths at once instead of holding the socket open', async () => {
    const answer = await rawRequest(port, upgrade('/api/health'), 3000);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('answers the same target without Upgrade with a 4xx error body', async () => {
    for (const target of ['http://[', 'http://[::1', '/%E0%A4%A', '//[', 'http://a:b@[x]/api/health']) {
      const answer = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(answer.status, target).toBeGreaterThanOrEqual(400);
      expect(answer.status, target).toBeLessThan(500);
      expect(JSON.parse(answer.body), target).toMatchObject({ status: answer.status });
    }
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
  });
});
