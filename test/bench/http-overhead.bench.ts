/**
 * The service's per-request overhead: GET /api/health through the full service (routing,
 * hooks, error handling) against a bare node:http server answering the same JSON, both driven
 * by the same undici client over loopback.
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { startService } from '../../src/service/server';
import { tempDir } from '../helpers/temp';
import type { Benchmark } from './harness';

async function requestsPerSecond(origin: string, total: number): Promise<number> {
  const pool = new Pool(origin, { connections: 8, pipelining: 1 });
  const t0 = process.hrtime.bigint();
  let next = 0;
  const worker = async () => {
    while (next++ < total) {
      const res = await pool.request({ path: '/api/health', method: 'GET' });
      await res.body.text();
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  await pool.close();
  return total / s;
}

export const benchmark: Benchmark = {
  name: 'service request overhead',
  async run(ctx) {
    const total = ctx.quick ? 2_000 : 20_000;
    const bare = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok","version":"0.1.0"}');
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const port = (bare.address() as { port: number }).port;
    const dir = tempDir();
    const service = await startService({ dataDir: dir.path, log: () => {} });
    await requestsPerSecond(`http://127.0.0.1:${port}`, 500);
    await requestsPerSecond(service.url, 500);
    const reference = await requestsPerSecond(`http://127.0.0.1:${port}`, total);
    const ours = await requestsPerSecond(service.url, total);
    bare.close();
    await service.close();
    dir.remove();
    return [
      {
        name: 'GET /api/health',
        unit: 'req/s',
        reference: { tool: 'bare node:http', value: reference },
        ours,
        higherIsBetter: true,
        notes: `${total} requests, 16 in flight`,
      },
    ];
  },
};
