/**
 * The one service client (src/shared/service-client) against the real service, through both
 * transports it is given: the core's adapter (undici's fetch on its Agent) and the platform
 * fetch the renderer uses (Node's global fetch and Blob here, the browser's in the app). A
 * refused token is renewed and the request sent once more, never twice; error bodies come back
 * whole on one ServiceError; no answer is status null, NETWORK, retryable; the multipart
 * builder's Blob form is what the upload route reads.
 */
import { describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { ServiceClient } from '../../../src/main/core/service-client/service-client';
import { chunkCount, multipart, uploadChunkFields } from '../../../src/shared/service-client/multipart';
import { ServiceError } from '../../../src/shared/service-client/service-error';
import { ServiceHttp, type FetchLike } from '../../../src/shared/service-client/service-http';
import { closedPort } from '../../helpers/closed-port';
import { fastqBytes, sha256 } from '../data/upload-helpers';
import { getDataById, getHealth, getMe, postSamples, postUpload } from '../../../src/shared/service-api/endpoints';
import type { UploadChunkResponse } from '../../../src/shared/service-api/uploads';
import type { NewSampleBody } from '../../../src/shared/service-api/samples';

/** A sample body without its reads: deliberately invalid, so the service answers VALIDATION_ERROR. */
const BAD_SAMPLE = { name: '' } as unknown as NewSampleBody;

const platformFetch: FetchLike<Blob, AbortSignal, Response> = (url, init) => fetch(url, init);

describe('the one service client against the real service', () => {
  const suite = adminSuite('alice');

  it('renews a refused token once and sends again, and gives up after the second 401', async () => {
    const asked: Array<string | undefined> = [];
    const http = new ServiceHttp({
      baseUrl: suite.service.url,
      fetch: platformFetch,
      auth: {
        async token(stale) {
          asked.push(stale);
          return stale ? suite.admin.token : 'not-a-token';
        },
      },
    });
    const me = await http.call(getMe);
    expect(me.username).toBe('alice');
    expect(asked).toEqual([undefined, 'not-a-token']);

    asked.length = 0;
    const never = new ServiceHttp({
      baseUrl: suite.service.url,
      fetch: platformFetch,
      auth: { token: async (stale) => (asked.push(stale), 'still-not-a-token') },
    });
    const err = await never.call(getMe).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', retryable: false, network: false });
    expect(asked).toHaveLength(2);
  });

  it("surfaces the service's error body whole, and its extras as the desktop API's details", async () => {
    const client = new ServiceClient({
      baseUrl: suite.service.url,
      auth: { token: async () => suite.admin.token, invalidate() {} },
    });
    try {
      const err = (await client.call(postSamples, { body: BAD_SAMPLE }).catch((e: unknown) => e)) as ServiceError;
      expect(err).toBeInstanceOf(ServiceError);
      expect(err.status).toBe(400);
      expect(err.body).toMatchObject({ code: err.code, status: 400, error: err.message });
      expect(err.retryable).toBe(false);
      const { error: _e, code: _c, status: _s, ...extras } = err.body;
      expect(err.data).toEqual({
        code: err.code,
        message: err.message,
        retryable: false,
        ...(Object.keys(extras).length ? { details: extras } : {}),
      });
      const missing = (await client
        .call(getDataById, { params: { id: 999999 } })
        .catch((e: unknown) => e)) as ServiceError;
      expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND', retryable: false });
    } finally {
      await client.close();
    }
  });

  it('tells no answer apart: status null, NETWORK, retryable, and the reachability callback', async () => {
    const port = await closedPort();
    const seen: boolean[] = [];
    const http = new ServiceHttp({
      baseUrl: `http://127.0.0.1:${port}`,
      fetch: platformFetch,
      onReachable: (r) => seen.push(r),
    });
    const err = await http.call(getHealth).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: null, code: 'NETWORK', retryable: true, network: true });
    expect((err as Error).message).toContain('ECONNREFUSED');
    expect(seen).toEqual([false]);
    const core = new ServiceClient({ baseUrl: `http://127.0.0.1:${port}` });
    const viaCore = await core.call(getHealth).catch((e: unknown) => e);
    expect(viaCore).toMatchObject({ status: null, code: 'NETWORK', retryable: true });
    await core.close();
  });

  it("uploads a file in chunks as Blob forms from the multipart builder (the renderer's path)", async () => {
    const bytes = fastqBytes(2000, 100, 7);
    const file = new Blob([new Uint8Array(bytes)]);
    const size = 64 * 1024;
    const total = chunkCount(bytes.length, size);
    const http = new ServiceHttp({
      baseUrl: suite.service.url,
      fetch: platformFetch,
      auth: { token: async () => suite.admin.token },
    });
    let last: UploadChunkResponse | null = null;
    for (let i = 0; i < total; i++) {
      const fields = uploadChunkFields({
        filename: 'blob.fastq',
        chunk: i,
        totalChunks: total,
        fileId: 'blob-1',
        totalSize: bytes.length,
      });
      const form = multipart(fields, [
        { field: 'file', filename: 'blob.fastq', content: file.slice(i * size, (i + 1) * size) },
      ]);
      last = await http.call(postUpload, {
        headers: { 'content-type': form.contentType },
        raw: new Blob(form.segments, { type: form.contentType }),
      });
    }
    if (!last || !('id' in last)) throw new Error('the last chunk was not answered with the data record');
    expect(last.checksum).toBe(sha256(bytes));
    const record = await http.call(getDataById, { params: { id: last.id } });
    expect(record).toMatchObject({ size: bytes.length, filename: 'blob.fastq' });
  });
});
