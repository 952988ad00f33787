/**
 * A chunk whose connection dies mid-body (network loss, a killed uploader, a proxy cutting it
 * short) must release its chunk index at once: the client's re-send of that chunk has to be
 * accepted, and the upload completes with the right bytes.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupAdmin } from '../identity/helpers';
import { startTestService, type TestService } from '../../helpers/test-service';
import { chunksOf, fastqBytes, postChunk, sha256 } from './upload-helpers';

/** Sends the head and the first `cut` bytes of a multipart chunk request, then drops the socket. */
async function sendCutShort(url: string, token: string, fields: Record<string, string>, bytes: Buffer, cut: number) {
  const boundary = `cut${Date.now()}`;
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const body = Buffer.concat([
    Buffer.from(
      `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fields.filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const { hostname, port } = new URL(url);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /api/upload HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, cut), () => setTimeout(() => (socket.destroy(), resolve()), 100));
    });
    socket.on('error', reject);
  });
}

describe('uploads: a chunk cut short mid-body', () => {
  let service: TestService;
  let token: string;
  beforeAll(async () => {
    service = await startTestService();
    token = (await setupAdmin(service)).token;
  });
  afterAll(async () => {
    await service.stop();
  });

  it('accepts the re-send of a chunk whose first attempt died mid-body, and completes the file', async () => {
    const bytes = fastqBytes(3000, 100);
    const parts = chunksOf(bytes, 128 * 1024);
    expect(parts.length).toBeGreaterThan(2);
    const base = {
      filename: 'cut.fastq',
      total_chunks: parts.length,
      file_id: 'cut-short-1',
      total_size: bytes.length,
    };
    const fields = (chunk: number) => ({ ...base, chunk });
    const asText = (chunk: number) =>
      Object.fromEntries(Object.entries(fields(chunk)).map(([k, v]) => [k, String(v)])) as Record<string, string>;

    // Chunk 0 (which fixes the chunk size) and chunk 1 both die halfway through their bodies.
    await sendCutShort(service.url, token, asText(0), parts[0]!, 60_000);
    await sendCutShort(service.url, token, asText(1), parts[1]!, 90_000);

    const timeout = AbortSignal.timeout(10_000);
    const status = await fetch(`${service.url}/api/upload/cut-short-1`, {
      headers: { authorization: `Bearer ${token}` },
      signal: timeout,
    });
    expect(
      status.status === 404 || ((await status.json()) as { received_chunks: number[] }).received_chunks.length === 0,
    ).toBe(true);

    let last: Awaited<ReturnType<typeof postChunk>> = { status: 0, body: {} };
    for (let i = 0; i < parts.length; i++) {
      last = await postChunk(service.url, token, { ...fields(i), checksum: sha256(bytes) }, parts[i]!);
      expect(last.status, JSON.stringify(last.body)).toBe(200);
    }
    expect(last.body).toMatchObject({ checksum: sha256(bytes), size: bytes.length });
    const download = await fetch(`${service.url}/api/data/${last.body.id as number}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
  }, 30_000);
});
