import { describe, expect, it } from 'vitest';
import { slugify } from '../../../src/service/groups/slug';
import { hashPassword, verifyPassword, DUMMY_HASH } from '../../../src/service/identity/passwords';
import { FailureLimiter } from '../../../src/service/identity/rate-limiter';
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
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('anything', DUMMY_HASH)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });
});

describe('login failure limiter', () => {
  it('limits after 10 failures in 15 minutes and forgets them as they age', () => {
    const clock = { t: 0, now: () => clock.t };
    const limiter = new FailureLimiter(clock);
    for (let i = 0; i < 9; i++) {
      limiter.fail('k');
      clock.t += 60_000;
    }
    expect(limiter.retryAfter('k')).toBe(0);
    limiter.fail('k');
    // The oldest failure (t=0) leaves the window at 15 minutes; now is 9 minutes.
    expect(limiter.retryAfter('k')).toBe(6 * 60);
    expect(limiter.retryAfter('other')).toBe(0);
    clock.t = 15 * 60_000 + 1;
    expect(limiter.retryAfter('k')).toBe(0);
    limiter.fail('k');
    expect(limiter.retryAfter('k')).toBeGreaterThan(0);
    limiter.reset('k');
    expect(limiter.retryAfter('k')).toBe(0);
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
