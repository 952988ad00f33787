/**
 * The processes of the queue benchmark, each measured on its own: `queue` (the desktop core's
 * durable upload queue, signed in, uploading the given files into the service and checking
 * every checksum; `samples`: each file a sample, created once uploaded) and `bare-many` (undici posting each file as one raw request to the upload
 * benchmark's bare server). Each prints one JSON line with its figures.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import { enqueueData, enqueueSamples } from '../../src/main/core/ingest/confirm';
import { ServiceClient } from '../../src/main/core/service-client/service-client';
import { openPlainFileStore } from '../../src/main/core/session/file-token-store';
import { Session } from '../../src/main/core/session/session';
import { JobStore } from '../../src/main/core/uploads/job-store';
import { multipartBody } from '../../src/main/core/uploads/multipart';
import { multipart, uploadChunkFields } from '../../src/shared/service-client/multipart';
import { openQueueDb } from '../../src/main/core/uploads/queue-db';
import { UploadQueue } from '../../src/main/core/uploads/upload-queue';
import { getDataById } from '../../src/shared/service-api/endpoints';
import { peakRssBytes } from '../../src/service/engines/self-usage';

const [mode, ...args] = process.argv.slice(2);
// This process's own peak (maxRSS would keep the bench runner's, from before the exec).
const peakRssMb = () => peakRssBytes() / (1024 * 1024);

async function filesOf(path: string): Promise<string[]> {
  if (!path.endsWith('/')) return [path];
  return (await readdir(path)).sort().map((n) => join(path, n));
}

if (mode === 'queue' || mode === 'samples') {
  const [url, username, password, state, input, chunk] = args as [string, string, string, string, string, string?];
  const anon = new ServiceClient({ baseUrl: url });
  const session = new Session({
    keychainService: 'bench',
    store: openPlainFileStore(join(state, 'tokens.json')),
    client: () => anon,
  });
  await session.login(username, password);
  const client = new ServiceClient({ baseUrl: url, auth: session });
  const db = openQueueDb(state);
  const chunkSize = Number(chunk) > 0 ? Number(chunk) : undefined;
  const queue = new UploadQueue({
    store: new JobStore(db),
    connection: () => ({ profileId: 'bench', client }),
    chunkSize,
  });
  const files = await filesOf(input);
  const t0 = process.hrtime.bigint();
  queue.start();
  // `samples`: each file a single-end sample (as the Uploads screen proposes a folder of them).
  if (mode === 'samples') {
    const metadata = { organism: 'Homo sapiens', category: 'DNA' };
    await enqueueSamples(
      queue,
      files.map((f) => ({ name: basename(f).replace(/\.fastq$/, ''), read1: f, read2: null, metadata })),
    );
  } else await enqueueData(queue, files);
  await queue.waitForIdle();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const { jobs, groups } = queue.list();
  // Verified: every job completed and the service's record carries the sha256 the queue read.
  let verified = jobs.length === files.length && jobs.every((j) => j.state === 'completed');
  for (const j of jobs.slice(0, 50))
    verified &&= (await client.call(getDataById, { params: { id: j.data_id! } })).checksum === j.checksum;
  if (mode === 'samples') verified &&= groups.length === files.length && groups.every((g) => g.state === 'created');
  await queue.stop();
  db.close();
  const window = { peak: queue.window.peakBytes, last: queue.window.limit, shrinks: queue.window.shrinks };
  console.log(JSON.stringify({ seconds, files: files.length, verified, rss: peakRssMb(), window }));
  await client.close();
  await anon.close();
} else if (mode === 'bare-many') {
  const [origin, dir] = args as [string, string];
  const files = await filesOf(dir);
  const pool = new Pool(origin, { connections: 3 });
  const t0 = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    [0, 1, 2].map(async () => {
      while (next < files.length) {
        const body = await readFile(files[next++]!);
        const res = await pool.request({ path: '/chunk', method: 'POST', body });
        await res.body.text();
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  await pool.close();
  console.log(JSON.stringify({ seconds, files: files.length, rss: peakRssMb() }));
} else if (mode === 'service-many') {
  // The service alone: each file as one single-chunk POST /api/upload (the queue's wire, with
  // its checksum and total_size), `inflight` at a time, with no queue, journal or hashing
  // here beyond the checksum field, to tell the service's per-file cost from the queue's.
  const [url, username, password, dir, inflight] = args as [string, string, string, string, string];
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const { token } = (await login.json()) as { token: string };
  const files = await filesOf(dir);
  const n = Number(inflight);
  const pool = new Pool(url, { connections: n });
  const t0 = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < files.length) {
        const path = files[next++]!;
        const bytes = await readFile(path);
        const fields = uploadChunkFields({
          filename: basename(path),
          chunk: 0,
          totalChunks: 1,
          fileId: randomUUID(),
          totalSize: bytes.length,
          checksum: createHash('sha256').update(bytes).digest('hex'),
        });
        const body = multipartBody(multipart(fields, [{ field: 'file', filename: basename(path), content: bytes }]));
        const res = await pool.request({
          path: '/api/upload',
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': body.contentType,
            'content-length': String(body.length),
          },
          body: Readable.from(body.stream()),
        });
        const text = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${text}`);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  await pool.close();
  console.log(JSON.stringify({ seconds, files: files.length, rss: peakRssMb() }));
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
