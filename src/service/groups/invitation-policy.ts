/**
 * Who may make the service send invitation mail, and how much (docs/security.md, "Outbound
 * mail"): an account sends at most `invitations_per_hour` and `invitations_per_day` invitation
 * mails (admin settings); an address already invited to the group is not mailed again; and when
 * the admin lists `invitation_domains`, only addresses in those domains (or their subdomains)
 * may be invited. Checked for the whole request before anything is stored or sent.
 */
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { readSettings } from '../settings/settings.store';
import { invitationsSentSince } from './invitation-policy.store';

const HOUR = 60 * 60 * 1000;

function inDomains(email: string, domains: string[]): boolean {
  const host = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** Throws when these new invitations (addresses to be mailed) break the policy. */
export function checkInvitationPolicy(ctx: ServiceContext, inviter: { username: string }, toMail: string[]): void {
  const s = readSettings(ctx.db);
  if (s.invitation_domains.length) {
    const outside = toMail.filter((e) => !inDomains(e, s.invitation_domains));
    if (outside.length) {
      throw errors.validation({
        emails: `invitations go only to addresses in ${s.invitation_domains.join(', ')}; not to ${outside.join(', ')}`,
      });
    }
  }
  if (toMail.length === 0) return;
  const now = ctx.clock.now();
  const windows = [
    { span: HOUR, limit: s.invitations_per_hour, name: 'hour' },
    { span: 24 * HOUR, limit: s.invitations_per_day, name: 'day' },
  ];
  for (const w of windows) {
    const sent = invitationsSentSince(ctx.db, inviter.username, new Date(now - w.span).toISOString());
    if (sent + toMail.length > w.limit) {
      const seconds = w.span / 1000;
      throw new ApiError(
        'RATE_LIMITED',
        `You can send ${w.limit} invitations per ${w.name} (${sent} sent): invite fewer addresses, or later`,
        { retry_after: seconds, limit: w.limit, sent },
        { 'retry-after': String(w.name === 'hour' ? 3600 : 86400) },
      );
    }
  }
}
