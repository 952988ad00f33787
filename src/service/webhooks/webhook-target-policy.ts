/**
 * Where webhook deliveries may go (docs/security.md, "Webhooks"). A webhook URL may name any
 * host, so without a policy the delivery log was a port scanner of the lab's network. Every
 * address the host resolves to is checked at connection time (the check is the connection's
 * own DNS lookup, so a name cannot resolve to a public address for the check and a private one
 * for the request): loopback, link-local, private, shared (CGNAT), unspecified, multicast and
 * the service machine's own addresses are refused unless the admin's `webhook_allow_list`
 * names the host, the address, or a CIDR range holding it.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Agent } from 'undici';

const REFUSED: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 3, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  // Site-local (deprecated by RFC 3879, still routed inside some networks).
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const refused = new BlockList();
for (const [net, prefix, type] of REFUSED) refused.addSubnet(net, prefix, type);

/** Why a delivery was not sent: kept out of the owner's log (it only says "failed"). */
export class TargetRefused extends Error {
  readonly code = 'ETARGETREFUSED';
}

export interface TargetPolicy {
  hosts: Set<string>;
  allowed: BlockList;
}

/** The admin's allow-list: host names, addresses, CIDR ranges. */
export function targetPolicy(allowList: string[]): TargetPolicy {
  const hosts = new Set<string>();
  const allowed = new BlockList();
  for (const raw of allowList) {
    const entry = raw.toLowerCase().replace(/^\[|\]$/g, '');
    const [net, bits] = entry.split('/');
    const type = isIP(net ?? '');
    if (type) {
      const family = type === 4 ? 'ipv4' : 'ipv6';
      allowed.addSubnet(net!, bits !== undefined ? Number(bits) : type === 4 ? 32 : 128, family);
    } else hosts.add(entry);
  }
  return { hosts, allowed };
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad counts as two). */
function hextets(address: string): number[] | null {
  let text = address.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (x: string) => (x ? x.split(':').map((h) => parseInt(h, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const groups =
    tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const dotted = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The plain form of an address: an IPv6 address that carries an IPv4 one is judged as that IPv4
 * address (IPv4-mapped ::ffff:0:0/96 in either spelling, the deprecated IPv4-compatible ::/96,
 * NAT64's 64:ff9b::/96 and 6to4's 2002::/16), so that no spelling of 127.0.0.1 or of a private
 * or own address slips past the lists.
 */
function plain(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  if (isIP(address) !== 6) return { address, type: 'ipv4' };
  const g = hextets(address);
  if (g) {
    const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
    if (zeros(5) && g[5] === 0xffff) return { address: dotted(g[6]!, g[7]!), type: 'ipv4' };
    if (zeros(6) && (g[6]! > 0 || g[7]! > 1)) return { address: dotted(g[6]!, g[7]!), type: 'ipv4' };
    if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
      return { address: dotted(g[6]!, g[7]!), type: 'ipv4' };
    if (g[0] === 0x2002) return { address: dotted(g[1]!, g[2]!), type: 'ipv4' };
  }
  return { address, type: 'ipv6' };
}

function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) out.add(plain(i.address).address);
  return out;
}

/** True when a delivery may connect to `address` of `host`. */
export function addressAllowed(policy: TargetPolicy, host: string, address: string): boolean {
  if (policy.hosts.has(host.toLowerCase())) return true;
  const a = plain(address);
  if (policy.allowed.check(a.address, a.type)) return true;
  return !refused.check(a.address, a.type) && !ownAddresses().has(a.address);
}

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/** An undici agent whose every connection resolves and checks its host under the policy. */
export function policyAgent(policy: TargetPolicy): Agent {
  const lookup = (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const bad = addresses.find((a) => !addressAllowed(policy, hostname, a.address));
      if (bad)
        return callback(new TargetRefused(`${hostname} resolves to ${bad.address}, which webhooks may not reach`), '');
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  return new Agent({ connect: { lookup: lookup as never } });
}

/** For a URL whose host is an address literal (no lookup happens): throws TargetRefused when refused. */
export function checkLiteralHost(policy: TargetPolicy, url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !addressAllowed(policy, host, host)) {
    throw new TargetRefused(`${host} is an address webhooks may not reach`);
  }
}
