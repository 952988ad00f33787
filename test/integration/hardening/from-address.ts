/** A JSON request to the test service from a chosen local (127.0.0.x) address. */
import { request } from 'node:http';
import type { TestService } from '../../helpers/test-service';

export function from(
  service: TestService,
  address: string,
  method: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | undefined }> {
  const url = new URL(service.url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        localAddress: address,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let got = '';
        res.on('data', (d: Buffer) => (got += d.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(got) as Record<string, unknown>,
            retryAfter: res.headers['retry-after'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
