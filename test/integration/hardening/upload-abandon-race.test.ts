/**
 * Issue 24 item 5: abandoning an upload (DELETE /api/upload/{file_id}, the desktop queue's
 * Cancel) while one of its chunks is still arriving answered that chunk 500 (a foreign key
 * failure recording it against the deleted upload), and could leave its bytes behind. Now the
 * chunk answers 409 UPLOAD_CONFLICT with the error body, nothing of the upload is left, and the
 * file can be sent again under the same file_id. Raw HTTP, so the chunk's body is held open
 * while the upload is abandoned.
 */
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { fastqBytes, postChunk } from '../data/upload-helpers';
import { call } from '../identity/helpers';

vi.setConfig({ testTimeout: 60_000 });

describe('a chunk arriving while its upload is abandoned (issue 24)', () => {
  const suite = adminSuite();

  it('answers 409 UPLOAD_CONFLICT, leaves nothing behind, and the file can be sent again', async () => {
    const bytes = fastqBytes(3000, 60, 4);
    const size = 64 * 1024;
    const chunks = [0, 1, 2].map((i) => bytes.subarray(i * size, (i + 1) * size));
    const fields = { filename: 'race.fastq', total_chunks: 3, file_id: 'race-1' };
    expect((await postChunk(suite.service.url, suite.admin.token, { ...fields, chunk: 0 }, chunks[0]!)).status).toBe(
      200,
    );
    const { id } = suite.service.ctx.db.prepare('SELECT id FROM uploads WHERE file_id = ?').get('race-1') as {
      id: number;
    };
    const dir = join(suite.service.dataDir, 'uploads', String(id));

    // Chunk 1, its body held open halfway.
    const boundary = 'laneway-race-boundary';
    const head = [
      ...Object.entries({ ...fields, chunk: 1 }).map(
        ([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
      ),
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="race.fastq"\r\n` +
        'content-type: application/octet-stream\r\n\r\n',
    ].join('');
    const tail = `\r\n--${boundary}--\r\n`;
    const body = chunks[1]!;
    const half = body.length >> 1;
    const req = request(`${suite.service.url}/api/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${suite.admin.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': Buffer.byteLength(head) + body.length + Buffer.byteLength(tail),
      },
    });
    const answer = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }),
        );
      });
      req.on('error', reject);
    });
    req.write(head);
    req.write(body.subarray(0, half));
    // The service is writing chunk 1 into the upload's file (it holds the chunk in flight) when
    // the upload is abandoned.
    await vi.waitFor(() => expect(suite.service.ctx.parts.liveUploads.get(id)?.inflight.has(1)).toBe(true), {
      timeout: 20_000,
      interval: 10,
    });
    expect((await call(suite.service, 'DELETE', '/api/upload/race-1', { token: suite.admin.token })).status).toBe(204);
    req.end(Buffer.concat([body.subarray(half), Buffer.from(tail)]));
    const got = await answer;
    expect(got).toMatchObject({ status: 409, body: { code: 'UPLOAD_CONFLICT', status: 409 } });
    expect(String(got.body.error)).toMatch(/abandoned/);
    // Nothing of it is left: no row, no folder.
    expect((await call(suite.service, 'GET', '/api/upload/race-1', { token: suite.admin.token })).status).toBe(404);
    expect(existsSync(dir)).toBe(false);
    // Sent again from the start under the same file_id, it completes.
    let last: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
    for (const [i, c] of chunks.entries())
      last = await postChunk(suite.service.url, suite.admin.token, { ...fields, chunk: i }, c);
    expect(last.status).toBe(200);
    expect(last.body.size).toBe(bytes.subarray(0, 3 * size).length);
  });
});
