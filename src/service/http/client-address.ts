/**
 * The address a per-address limit counts, shared by every limiter that keys on the caller
 * (sign-in in identity/sign-in-guard.ts, refused API keys in auth/api-key-verify.ts): one host
 * usually owns a whole IPv6 /64 and can rotate within it at will, so a limit keyed on the raw
 * address would give it 2^64 fresh budgets. Lives on the http floor so both areas may import it.
 */
import { isIPv6 } from 'node:net';

/** IPv4 as is (also when IPv4-mapped), IPv6 by its /64 (zone index dropped). */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('%')[0]!.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const full = ip.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return `${full
    .slice(0, 4)
    .map((x) => parseInt(x || '0', 16).toString(16))
    .join(':')}::/64`;
}
