/**
 * Issue 24 item 7 (low): "a slow re-send of a chunk while the last chunk fails its checksum
 * answers 500" (compareChunk, chunk-commit.ts). The re-send is a real multipart request whose
 * body is held open over a socket: its fields and the start of its file arrive, then the last
 * chunk comes with a whole-file checksum that does not match (the upload starts over), then the
 * re-send's body ends. It must answer 409 UPLOAD_CONFLICT with the error body, never 500.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { call } from '../identity/helpers';
import { chunksOf, fastqBytes, postChunk } from '../data/upload-helpers';

describe('a chunk re-sent while the upload starts over (issue 24 item 7)', () => {
  const suite = adminSuite('alice');

  it('answers 409 UPLOAD_CONFLICT, not 500, and the upload can be sent again', async () => {
    const bytes = fastqBytes(400, 80, 9);
    const parts = chunksOf(bytes, 16 * 1024);
    const n = parts.length;
    const base = { filename: 'resend.fastq', total_chunks: n, file_id: 'resend-1', total_size: bytes.length };
    for (let i = 0; i < n - 1; i++) {
      expect((await postChunk(suite.service.url, suite.admin.token, { ...base, chunk: i }, parts[i]!)).status).toBe(
        200,
      );
    }
    // The slow re-send of chunk 0: everything but the end of its body.
    const boundary = 'laneway-resend-boundary';
    const field = (k: string, v: string | number) =>
      `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
    const head =
      Object.entries({ ...base, chunk: 0 })
        .map(([k, v]) => field(k, v))
        .join('') +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="resend.fastq"\r\n` +
      'content-type: application/octet-stream\r\n\r\n';
    const tail = `\r\n--${boundary}--\r\n`;
    const body = Buffer.concat([Buffer.from(head), parts[0]!, Buffer.from(tail)]);
    const socket = connect(Number(new URL(suite.service.url).port), '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let answer = '';
    const done = new Promise<string>((resolve) => {
      socket.on('data', (d: Buffer) => (answer += d.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('close', () => resolve(answer));
    });
    socket.write(
      `POST /api/upload HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${suite.admin.token}\r\n` +
        `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
    );
    const split = head.length + 1000;
    socket.write(body.subarray(0, split));
    // The service has read the re-send's head once it answers a request sent after it.
    expect(
      (await call(suite.service, 'GET', '/api/upload/resend-1', { token: suite.admin.token })).body.received_chunks,
    ).toHaveLength(n - 1);
    // The last chunk with a wrong whole-file checksum: the upload starts over.
    const wrong = await postChunk(
      suite.service.url,
      suite.admin.token,
      { ...base, chunk: n - 1, checksum: 'f'.repeat(64) },
      parts[n - 1]!,
    );
    expect(wrong.status).toBe(422);
    socket.write(body.subarray(split));
    const raw = await done;
    const status = Number(/^HTTP\/1\.1 (\d+)/.exec(raw)?.[1]);
    const json = JSON.parse(raw.slice(raw.indexOf('{'))) as Record<string, unknown>;
    expect(status).toBe(409);
    expect(json).toMatchObject({ code: 'UPLOAD_CONFLICT', status: 409 });
    // The upload is intact and answers; the file, sent again (its checksum was wrong under that
    // file_id, so under a new one), is stored whole.
    expect((await call(suite.service, 'GET', '/api/upload/resend-1', { token: suite.admin.token })).status).toBe(200);
    let last = { status: 0, body: {} as Record<string, unknown> };
    for (let i = 0; i < n; i++) {
      last = await postChunk(
        suite.service.url,
        suite.admin.token,
        { ...base, file_id: 'resend-2', chunk: i },
        parts[i]!,
      );
    }
    expect(last.status).toBe(200);
    expect(last.body.size).toBe(bytes.length);
  });
});
