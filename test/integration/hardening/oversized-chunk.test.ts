/**
 * Issue 11 row 13: a chunk over 50 MB was answered 413 while its body was still arriving and
 * the socket closed, so Node's fetch (undici) saw only "fetch failed" (EPIPE) where curl saw the
 * 413. Sent with Node's own fetch to `laneway serve` in its own process (in one process the
 * event loop is shared and the race does not show).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServeProcess, type ServeProcess } from '../../helpers/serve-process';
import { fastqBytes, postChunk, uploadWhole } from '../data/upload-helpers';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

describe('a chunk over 50 MB (issue 11 row 13)', () => {
  let serve: ServeProcess;
  let token: string;
  beforeAll(async () => {
    serve = await startServeProcess();
    const json = { 'content-type': 'application/json' };
    const account = { username: 'alice', password: 'correct horse', email: 'a@lab.test', name: 'A' };
    await fetch(`${serve.url}/api/setup`, { method: 'POST', headers: json, body: JSON.stringify(account) });
    const login = await fetch(`${serve.url}/api/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: 'alice', password: 'correct horse' }),
    });
    token = ((await login.json()) as { token: string }).token;
  });
  afterAll(async () => {
    await serve.stop();
  });

  it("reaches Node's fetch as 413 PAYLOAD_TOO_LARGE with the error body, and stores nothing", async () => {
    for (const size of [51_000_000, 120_000_000]) {
      const big = Buffer.alloc(size, 0x41);
      big.write('@r1\n', 0);
      const answer = await postChunk(
        serve.url,
        token,
        { filename: 'big.fastq', chunk: 0, total_chunks: 2, file_id: `too-big-${size}` },
        big,
      );
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
      const status = await fetch(`${serve.url}/api/upload/too-big-${size}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(status.status).toBe(404);
    }
    // The service still answers, and the next upload goes through.
    expect((await uploadWhole(serve.url, token, 'after.fastq', fastqBytes(20, 50, 9))).status).toBe(200);
  });
});
