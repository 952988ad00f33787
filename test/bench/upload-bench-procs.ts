/**
 * The processes of the upload benchmark, each measured on its own: `client` (the desktop
 * upload queue's chunk sender, one job, into the service), `bare-server` (a minimal node:http server that only writes
 * each request body to disk) and `bare-client` (undici sending the same file in the same
 * chunks, raw). Each prints one JSON line with its figures.
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';
import { ServiceClient } from '../../src/main/core/service-client/service-client';
import { BandwidthLimiter } from '../../src/main/core/uploads/bandwidth';
import { PRE_HASH_LIMIT, runJob } from '../../src/main/core/uploads/job-runner';
import { JobStore } from '../../src/main/core/uploads/job-store';
import { openQueueDb } from '../../src/main/core/uploads/queue-db';
import { getDataById } from '../../src/shared/service-api/endpoints';
import { peakRssBytes } from '../../src/service/engines/self-usage';

const [mode, ...args] = process.argv.slice(2);

// This process's own peak (maxRSS would keep the bench runner's, from before the exec).
function peakRssMb(): number {
  return peakRssBytes() / (1024 * 1024);
}

if (mode === 'client') {
  const [origin, token, path, chunk] = args as [string, string, string, string];
  // The queue's own state file and sender, as the desktop app and `laneway upload` run them.
  const state = mkdtempSync(join(tmpdir(), 'laneway-upload-bench-'));
  const db = openQueueDb(state);
  const store = new JobStore(db);
  const client = new ServiceClient({ baseUrl: origin, auth: { token: async () => token, invalidate() {} } });
  const row = store.insertJob({
    profileId: 'bench',
    sources: [path],
    filename: basename(path),
    role: 'data',
    groupId: null,
    priority: 'normal',
    chunkSize: Number(chunk),
  });
  const t0 = process.hrtime.bigint();
  const outcome = await runJob(row, {
    store,
    client,
    limiter: new BandwidthLimiter(() => null),
    signal: new AbortController().signal,
    preHashLimit: PRE_HASH_LIMIT,
    // One chunk at a time, as the bare client sends them: the ratio compares like with like.
    chunkWindow: 1,
    onBytes: () => undefined,
    onState: () => undefined,
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (outcome.kind !== 'completed') throw new Error(`upload ended ${JSON.stringify(outcome)}`);
  const checksum = outcome.checksum;
  const record = await client.call(getDataById, { params: { id: outcome.dataId } });
  await client.close();
  db.close();
  rmSync(state, { recursive: true, force: true });
  console.log(JSON.stringify({ seconds, checksum, verified: record.checksum === checksum, rss: peakRssMb() }));
} else if (mode === 'bare-server') {
  const [dir] = args as [string];
  mkdirSync(dir, { recursive: true });
  let n = 0;
  const server = createServer((req, res) => {
    const file = join(dir, `chunk-${n++}`);
    pipeline(req, createWriteStream(file)).then(
      () => res.end('{"ok":true}'),
      () => res.writeHead(500).end(),
    );
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else if (mode === 'bare-client') {
  const [origin, path, chunk] = args as [string, string, string];
  const chunkSize = Number(chunk);
  const size = (await stat(path)).size;
  const pool = new Pool(origin, { connections: 1, pipelining: 1 });
  const fh = await open(path, 'r');
  const buf = Buffer.allocUnsafe(chunkSize);
  const t0 = process.hrtime.bigint();
  for (let at = 0; at < size; at += chunkSize) {
    const length = Math.min(chunkSize, size - at);
    let got = 0;
    while (got < length) got += (await fh.read(buf, got, length - got, at + got)).bytesRead;
    const res = await pool.request({ path: '/chunk', method: 'POST', body: buf.subarray(0, length) });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`bare server answered ${res.statusCode}`);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  await fh.close();
  await pool.close();
  console.log(JSON.stringify({ seconds, rss: peakRssMb() }));
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
