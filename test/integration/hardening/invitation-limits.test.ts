/**
 * Issue 24 item 3, mail: "Any account can make the service send mail anywhere: 500 invitation
 * mails with a phishing group name to outside addresses in 9 s; re-inviting sends them again".
 * Now: per-account limits per hour and per day (admin settings), no second mail to an address
 * already invited, and an optional list of domains invitations may go to. Counted by the
 * notifications each invitation records (one per mail).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, login, setupAdmin, type Session } from '../identity/helpers';

describe('invitation mail is limited (issue 24 item 3)', () => {
  const clock = { t: Date.parse('2026-03-01T09:00:00Z'), now: () => clock.t };
  let service: TestService;
  let admin: Session;
  let alice: Session;
  let slug: string;
  beforeAll(async () => {
    service = await startTestService({ clock });
    admin = await setupAdmin(service, 'admin');
    alice = await addUser(service, admin, 'alice');
    const group = await call(service, 'POST', '/api/groups/', { token: alice.token, body: { name: 'Phish Lab' } });
    slug = group.body.slug as string;
    const set = await call(service, 'PUT', '/api/admin/settings', {
      token: admin.token,
      body: { invitations_per_hour: 5, invitations_per_day: 8 },
    });
    expect(set.status).toBe(200);
  });
  afterAll(async () => {
    await service.stop();
  });

  const invite = (emails: string[], who = alice) =>
    call(service, 'POST', `/api/groups/${slug}/invite/`, { token: who.token, body: { emails, permission: 'view' } });

  it('re-inviting an address with an open invitation sends nothing again', async () => {
    const first = await invite(['x1@outside.test', 'x2@outside.test']);
    expect(first.status).toBe(200);
    expect(first.body.pending).toEqual(['x1@outside.test', 'x2@outside.test']);
    const again = await invite(['x1@outside.test', 'X2@outside.test']);
    expect(again.status).toBe(200);
    expect(again.body.pending).toEqual([]);
    expect(again.body.already_invited).toEqual(['x1@outside.test', 'X2@outside.test']);
  });

  it('an account sends at most the hourly and daily number of invitations', async () => {
    // 2 sent; 3 more fit in the hour, a request for 4 is refused whole.
    const over = await invite(['a@outside.test', 'b@outside.test', 'c@outside.test', 'd@outside.test']);
    expect(over).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', status: 429, limit: 5, sent: 2 } });
    expect(over.headers.get('retry-after')).toBe('3600');
    expect((await invite(['a@outside.test', 'b@outside.test', 'c@outside.test'])).status).toBe(200);
    expect((await invite(['e@outside.test'])).status).toBe(429);
    // An hour later the hourly count is free again, the daily one is not (5 of 8 used).
    clock.t += 61 * 60 * 1000;
    alice = await login(service, 'alice', 'password-alice');
    admin = await login(service, 'admin', 'correct horse');
    expect((await invite(['e@outside.test', 'f@outside.test', 'g@outside.test'])).status).toBe(200);
    const daily = await invite(['h@outside.test']);
    expect(daily).toMatchObject({ status: 429, body: { limit: 8 } });
    expect(daily.headers.get('retry-after')).toBe('86400');
  });

  it('with listed domains, invitations go only there (subdomains included)', async () => {
    clock.t += 25 * 60 * 60 * 1000;
    alice = await login(service, 'alice', 'password-alice');
    admin = await login(service, 'admin', 'correct horse');
    const set = await call(service, 'PUT', '/api/admin/settings', {
      token: admin.token,
      body: { invitation_domains: ['Lab.test'] },
    });
    expect(set.body.invitation_domains).toEqual(['lab.test']);
    const outside = await invite(['ok@lab.test', 'evil@lab.test.attacker.example']);
    expect(outside).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(JSON.stringify(outside.body)).toContain('evil@lab.test.attacker.example');
    const inside = await invite(['ok@lab.test', 'someone@genomics.lab.test']);
    expect(inside.status).toBe(200);
    expect(inside.body.pending).toEqual(['ok@lab.test', 'someone@genomics.lab.test']);
  });
});
