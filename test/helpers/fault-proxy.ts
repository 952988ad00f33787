/**
 * A TCP proxy of the tests' own between a client and the service that injects network faults
 * per connection: drop the connection after some request bytes, stall it, or cut the
 * response body short. The fault for each new connection comes from a policy function.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export type Fault =
  | { kind: 'pass' }
  /** Close both sides after this many client->service bytes. */
  | { kind: 'drop'; afterBytes: number }
  /** Forward nothing more after this many client->service bytes, hold the connection open. */
  | { kind: 'stall'; afterBytes: number }
  /** Forward only this many service->client bytes, then close. */
  | { kind: 'cut-response'; afterBytes: number };

export interface FaultProxy {
  url: string;
  port: number;
  /** How many connections got each fault. */
  counts: Record<Fault['kind'], number>;
  setPolicy(policy: () => Fault): void;
  close(): Promise<void>;
}

/** Starts a proxy on an ephemeral loopback port in front of `target` (host:port). */
export async function startFaultProxy(
  target: { host: string; port: number },
  policy: () => Fault = () => ({ kind: 'pass' }),
): Promise<FaultProxy> {
  let current = policy;
  const sockets = new Set<Socket>();
  const counts: FaultProxy['counts'] = { pass: 0, drop: 0, stall: 0, 'cut-response': 0 };
  const server: Server = createServer((client) => {
    const fault = current();
    counts[fault.kind]++;
    const upstream = connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    client.on('error', end);
    upstream.on('error', end);
    let up = 0;
    let down = 0;
    let stalled = false;
    client.on('data', (buf: Buffer) => {
      if (stalled) return;
      up += buf.length;
      if ((fault.kind === 'drop' || fault.kind === 'stall') && up > fault.afterBytes) {
        const keep = buf.length - (up - fault.afterBytes);
        if (keep > 0) upstream.write(buf.subarray(0, keep));
        if (fault.kind === 'drop') end();
        else stalled = true;
        return;
      }
      upstream.write(buf);
    });
    upstream.on('data', (buf: Buffer) => {
      down += buf.length;
      if (fault.kind === 'cut-response' && down > fault.afterBytes) {
        const keep = buf.length - (down - fault.afterBytes);
        if (keep > 0) client.write(buf.subarray(0, keep));
        end();
        return;
      }
      client.write(buf);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    counts,
    setPolicy(p) {
      current = p;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
