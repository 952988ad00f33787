import { describe, expect, it } from 'vitest';
import { slugify } from '../../../src/service/groups/slug';
import { PasswordPool } from '../../../src/service/identity/password-pool';
import { hashPassword, verifyPassword, DUMMY_HASH } from '../../../src/service/identity/passwords';
import { addressKey } from '../../../src/service/http/client-address';
import { SIGN_IN_POLICY, SignInGuard, backoffMs } from '../../../src/service/identity/sign-in-guard';
import { maxAccess, minPermission, satisfies } from '../../../src/service/policy/policy';
import { kindForSegment } from '../../../src/service/policy/resource-kinds';

describe('group slugs', () => {
  it.each([
    ['Genomics Lab', 'genomics-lab'],
    ['  Génomique   Lab #2 ', 'genomique-lab-2'],
    ['Straße & Co.', 'strasse-co'],
    ['Ærø Øst', 'aero-ost'],
    ['☃☃', 'group'],
    ['---', 'group'],
    ['a'.repeat(80), 'a'.repeat(48)],
    [`${'ab-'.repeat(16)}cd`, 'ab-'.repeat(15) + 'ab'],
  ])('%s -> %s', (name, slug) => {
    expect(slugify(name)).toBe(slug);
    expect(slugify(name)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe('passwords (scrypt)', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const pool = new PasswordPool();
    const a = await hashPassword(pool, 'correct horse');
    const b = await hashPassword(pool, 'correct horse');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword(pool, 'correct horse', a)).toBe(true);
    expect(await verifyPassword(pool, 'correct horsE', a)).toBe(false);
    expect(await verifyPassword(pool, 'anything', DUMMY_HASH)).toBe(false);
    expect(await verifyPassword(pool, 'x', 'not-a-hash')).toBe(false);
    await pool.close();
  });
});

describe('sign-in backoff', () => {
  it('is free for a few failures, then doubles up to its ceiling', () => {
    const b = { free: 3, baseMs: 1000, ceilingMs: 10_000 };
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map((n) => backoffMs(n, b))).toEqual([
      0, 0, 0, 1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });

  it('counts IPv4 as is, IPv4-mapped as IPv4, and IPv6 by its /64', () => {
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2::ffff'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('forgets failures as they leave the window', () => {
    const clock = { t: 0, now: () => clock.t };
    const guard = new SignInGuard(clock);
    for (let i = 0; i < SIGN_IN_POLICY.pair.free; i++) guard.fail('u', '10.0.0.1');
    expect(() => guard.begin('u', '10.0.0.1')).toThrow(/try again in 1 seconds/);
    expect(guard.begin('u', '10.0.0.2')).toBe('priority');
    expect(guard.begin('v', '10.0.0.1')).toBe('normal');
    clock.t += SIGN_IN_POLICY.windowMs + 1;
    expect(guard.begin('u', '10.0.0.1')).toBe('priority');
  });
});

describe('permission arithmetic', () => {
  it('orders view < edit < share < full', () => {
    expect(minPermission('share', 'view')).toBe('view');
    expect(minPermission('edit', 'share')).toBe('edit');
    expect(maxAccess(null, 'view')).toBe('view');
    expect(maxAccess('edit', 'full')).toBe('full');
    expect(maxAccess('share', 'edit')).toBe('share');
    expect(satisfies('edit', 'view')).toBe(true);
    expect(satisfies('edit', 'share')).toBe(false);
    expect(satisfies(null, 'view')).toBe(false);
    expect(satisfies('full', 'full')).toBe(true);
    expect(satisfies('share', 'full')).toBe(false);
  });

  it('maps URL segments to kinds', () => {
    expect(kindForSegment('projects')).toBe('project');
    expect(kindForSegment('data')).toBe('data');
    expect(kindForSegment('executions')).toBe('execution');
    expect(kindForSegment('groups')).toBeUndefined();
  });
});
