import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliProcess } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp';
import { chunksOf, fastqBytes, postChunk, sha256 } from './upload-helpers';

/** Starts `laneway serve` on the data folder; resolves with the process and its URL. */
async function serve(data: string): Promise<{ p: CliProcess; url: string }> {
  const p = runCli(['serve', '--port', '0', '--data', data, '--json']);
  const { url } = await p.waitForEvent<{ url: string }>('listening');
  return { p, url };
}

async function kill9(p: CliProcess): Promise<void> {
  p.child.kill('SIGKILL');
  await p.exit;
}

/** Sends a chunk whose body stalls after `sent` bytes of the file part (the request stays open). */
function stalledChunk(url: string, token: string, fields: Record<string, string>, bytes: Buffer, sent: number) {
  const boundary = 'crashboundary42';
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fields.filename}"\r\n\r\n`;
  let delivered!: () => void;
  const reached = new Promise<void>((r) => (delivered = r));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(head + fileHead));
      controller.enqueue(new Uint8Array(bytes.subarray(0, sent)));
      delivered();
      // never closes: the service is killed with this chunk half received
    },
  });
  const response = fetch(`${url}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit).catch((err: unknown) => err);
  return { reached, response };
}

describe('upload crash safety: kill -9 the service mid-upload, restart, resume', () => {
  const dir = tempDir();
  const running: CliProcess[] = [];
  afterAll(async () => {
    for (const p of running) if (p.child.exitCode === null) await kill9(p);
    dir.remove();
  });

  it('resumes through GET /api/upload/{file_id} after kill -9 during a chunk and during completion', async () => {
    const data = `${dir.path}/data`;
    let { p, url } = await serve(data);
    running.push(p);
    const setup = await fetch(`${url}/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'tech', password: 'correct horse', email: 't@lab.test', name: 'Tech' }),
    });
    expect(setup.status).toBe(201);
    const loginRes = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'tech', password: 'correct horse' }),
    });
    const { token } = (await loginRes.json()) as { token: string };

    const bytes = fastqBytes(3000, 100, 41);
    const parts = chunksOf(bytes, 64 * 1024);
    const n = parts.length;
    const fields = (i: number) => ({
      filename: 'run.fastq',
      chunk: i,
      total_chunks: n,
      file_id: 'crash-run',
      total_size: bytes.length,
      checksum: sha256(bytes),
    });
    // Chunks 0-2 acknowledged; chunk 3 half sent when the service dies.
    for (let i = 0; i < 3; i++) expect((await postChunk(url, token, fields(i), parts[i]!)).status).toBe(200);
    const stalled = stalledChunk(
      url,
      token,
      Object.fromEntries(Object.entries(fields(3)).map(([k, v]) => [k, String(v)])),
      parts[3]!,
      30_000,
    );
    await stalled.reached;
    await new Promise((r) => setTimeout(r, 200));
    await kill9(p);
    await stalled.response;

    ({ p, url } = await serve(data));
    running.push(p);
    const status = await fetch(`${url}/api/upload/crash-run`, { headers: { authorization: `Bearer ${token}` } });
    const st = (await status.json()) as { received_chunks: number[]; complete: boolean };
    expect(st).toMatchObject({ complete: false, received_chunks: [0, 1, 2], total_chunks: n });
    const none = await fetch(`${url}/api/data/`, { headers: { authorization: `Bearer ${token}` } });
    expect(await none.json()).toMatchObject({ count: 0 });

    // Resume what is missing, all but the last; then kill right as the last chunk goes out.
    for (let i = 0; i < n - 1; i++) {
      if (st.received_chunks.includes(i)) continue;
      expect((await postChunk(url, token, fields(i), parts[i]!)).status).toBe(200);
    }
    const lastSent = postChunk(url, token, fields(n - 1), parts[n - 1]!).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 15));
    await kill9(p);
    await lastSent;

    ({ p, url } = await serve(data));
    running.push(p);
    // The client asks what arrived and re-sends the rest; the chunk that completes answers the record.
    const again = (await (
      await fetch(`${url}/api/upload/crash-run`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { received_chunks: number[]; complete: boolean; data_id: number | null };
    let dataId = again.data_id;
    if (!again.complete) {
      const missing = Array.from({ length: n }, (_, i) => i).filter((i) => !again.received_chunks.includes(i));
      const resend = missing.length ? missing : [n - 1];
      for (const i of resend) {
        const res = await postChunk(url, token, fields(i), parts[i]!);
        expect(res.status).toBe(200);
        if (res.body.checksum) dataId = res.body.id as number;
      }
    }
    expect(dataId).not.toBeNull();
    const list = (await (
      await fetch(`${url}/api/data/`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      count: number;
      items: Array<{ id: number; checksum: string; size: number }>;
    };
    expect(list.count).toBe(1);
    expect(list.items[0]).toMatchObject({ id: dataId, checksum: sha256(bytes), size: bytes.length });
    const download = await fetch(`${url}/api/data/${dataId}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
    p.child.kill('SIGTERM');
    expect((await p.exit).code).toBe(0);
  }, 120_000);
});
