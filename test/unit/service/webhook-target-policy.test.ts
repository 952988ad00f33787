/**
 * The webhook target policy on every spelling of an address (issue 24 item 3: the delivery log
 * was a port scanner of loopback, private and link-local ranges and of the service itself). The
 * ranges are IANA's special-purpose registries (RFC 6890 and its updates): loopback, RFC 1918
 * private, link-local, CGNAT, multicast, unique-local and site-local IPv6, and IPv6 forms that
 * carry an IPv4 address (mapped, compatible, NAT64 64:ff9b::/96 per RFC 6052, 6to4 2002::/16
 * per RFC 3056).
 */
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { addressAllowed, checkLiteralHost, targetPolicy } from '../../../src/service/webhooks/webhook-target-policy';

const none = targetPolicy([]);

describe('webhook target policy', () => {
  it('refuses loopback, private, link-local, shared and special addresses however written', () => {
    const refused = [
      '127.0.0.1',
      '127.8.9.10',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fd12:3456::1',
      'fec0::1',
      'ff02::1',
      // IPv4 inside IPv6.
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::127.0.0.1',
      '::7f00:1',
      '64:ff9b::7f00:1',
      '64:ff9b::10.0.0.1',
      '2002:7f00:1::1',
      '2002:c0a8:101::',
    ];
    for (const a of refused) expect([a, addressAllowed(none, 'h', a)]).toEqual([a, false]);
  });

  it('lets public addresses through, in every spelling', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '::ffff:808:808', '64:ff9b::808:808', '2002:808:808::1', '2606:4700::1111'])
      expect([a, addressAllowed(none, 'h', a)]).toEqual([a, true]);
  });

  it("refuses every address of the service's own machine", () => {
    for (const list of Object.values(networkInterfaces()))
      for (const i of list ?? []) expect([i.address, addressAllowed(none, 'h', i.address)]).toEqual([i.address, false]);
  });

  it("the admin's allow-list lets named hosts, addresses and ranges through, and nothing else", () => {
    const lab = targetPolicy(['receiver.lab.internal', '10.20.0.0/16', '[::1]']);
    expect(addressAllowed(lab, 'receiver.lab.internal', '10.9.9.9')).toBe(true);
    expect(addressAllowed(lab, 'other.lab.internal', '10.20.3.4')).toBe(true);
    expect(addressAllowed(lab, 'other.lab.internal', '10.21.3.4')).toBe(false);
    expect(addressAllowed(lab, 'h', '::1')).toBe(true);
    expect(addressAllowed(lab, 'h', '127.0.0.1')).toBe(false);
  });

  it('checks address literals in URLs as the URL parser normalises them', () => {
    for (const url of [
      'http://0x7f000001/',
      'http://2130706433/',
      'http://127.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::7f00:1]/',
    ])
      expect(() => checkLiteralHost(none, new URL(url)), url).toThrow(/may not reach/);
    expect(() => checkLiteralHost(none, new URL('http://8.8.8.8/'))).not.toThrow();
  });
});
