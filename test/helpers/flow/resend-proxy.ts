/**
 * An HTTP proxy of the tests' own in front of the service that makes Flow's client re-send an
 * upload chunk that already landed: the chosen request is forwarded and answered by the
 * service, but the client is told 503 (as a gateway that lost the answer would), which
 * flowbio retries with the same offset and bytes. Every other request passes through.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';

export interface ResendProxy {
  url: string;
  /** How many answers were replaced by a 503. */
  replaced: number;
  close(): Promise<void>;
}

/** Replaces the service's answer to the `nth` (1-based) POST whose path ends with `pathSuffix`. */
export async function startResendProxy(target: string, pathSuffix: string, nth: number): Promise<ResendProxy> {
  const t = new URL(target);
  let seen = 0;
  const state = { replaced: 0 };
  const server: Server = createServer((req, res) => {
    const hit = req.method === 'POST' && (req.url ?? '').split('?')[0]!.endsWith(pathSuffix) && ++seen === nth;
    const upstream = httpRequest(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        if (hit) {
          answer.resume();
          answer.on('end', () => {
            state.replaced++;
            res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('Service Unavailable');
          });
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    get replaced() {
      return state.replaced;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
