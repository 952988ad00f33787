/**
 * The addresses `laneway serve` prints. A wildcard host (0.0.0.0, ::) listens on every
 * interface, and 127.0.0.1 is the one address a colleague's workstation cannot use: list the
 * machine's non-internal addresses first, then its name, loopback last.
 */
import { hostname, networkInterfaces } from 'node:os';

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** The URLs to print for a service listening on `host`, whose local URL is `localUrl`. */
export function reachableUrls(
  host: string,
  localUrl: string,
  machine: { hostname: () => string; interfaces: typeof networkInterfaces } = {
    hostname,
    interfaces: networkInterfaces,
  },
): string[] {
  if (!WILDCARDS.has(host)) return [localUrl];
  const port = new URL(localUrl).port;
  const ipv6 = host.includes(':');
  const addresses: string[] = [];
  for (const list of Object.values(machine.interfaces()))
    for (const a of list ?? []) {
      if (a.internal) continue;
      if (a.family === 'IPv4') addresses.push(a.address);
      else if (ipv6 && !a.address.startsWith('fe80')) addresses.push(`[${a.address}]`);
    }
  const name = machine.hostname();
  // Addresses first: a LAN without DNS still reaches them; the name may resolve, or not.
  const urls = [...addresses, ...(name && name !== 'localhost' ? [name] : [])].map((h) => `http://${h}:${port}`);
  return [...urls, localUrl];
}
