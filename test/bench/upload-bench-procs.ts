/**
 * The processes of the upload benchmark, each measured on its own: `client` (the project's
 * chunked client into the service), `bare-server` (a minimal node:http server that only writes
 * each request body to disk) and `bare-client` (undici sending the same file in the same
 * chunks, raw). Each prints one JSON line with its figures.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';
import { uploadFile } from '../../src/node/chunked-upload-client';

const [mode, ...args] = process.argv.slice(2);

function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

if (mode === 'client') {
  const [origin, token, path, chunk] = args as [string, string, string, string];
  const t0 = process.hrtime.bigint();
  const res = await uploadFile({ origin, token, path, chunkSize: Number(chunk) });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(
    JSON.stringify({
      seconds,
      checksum: res.checksum,
      verified: res.record.checksum === res.checksum,
      rss: peakRssMb(),
    }),
  );
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
