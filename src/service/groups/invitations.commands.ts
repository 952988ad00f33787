/**
 * Invitations by e-mail address. An address with an account becomes an Invited membership at
 * once; an address without one waits in pending_invitations until an account with that address
 * is created (or its e-mail changed to it). Either way the invitee is notified (and mailed).
 */
import type { InviteOutcome, Permission } from '../../shared/service-api/groups';
import type { ServiceContext, StoreContext } from '../context';
import { userByEmail } from '../auth/users.store';
import { notify } from '../notifications/notifications.commands';
import { checkInvitationPolicy } from './invitation-policy';
import { alreadyInvited } from './invitation-policy.store';
import { claimNotifications } from '../notifications/notifications.store';
import {
  deletePendingInvitationsFor,
  membershipOf,
  pendingInvitationsFor,
  upsertInvitation,
  upsertPendingInvitation,
} from './groups.store';

interface GroupRef {
  id: number;
  slug: string;
  name: string;
}

/** Invites each address into the group at the given permission; notifies every new invitee. */
export function inviteEmails(
  ctx: ServiceContext,
  group: GroupRef,
  emails: string[],
  permission: Permission,
  inviter: { id: number; username: string; name: string },
): InviteOutcome {
  const outcome: InviteOutcome = { invited: [], pending: [], already_members: [], already_invited: [] };
  const now = new Date(ctx.clock.now()).toISOString();
  const unique = [...new Map(emails.map((e) => [e.trim().toLowerCase(), e.trim()])).values()];
  // An open invitation is not mailed again (re-inviting once re-sent every mail).
  const repeat = new Set(unique.filter((e) => alreadyInvited(ctx.db, group.id, e)));
  checkInvitationPolicy(
    ctx,
    inviter,
    unique.filter((e) => !repeat.has(e)),
  );
  ctx.db.transaction(() => {
    for (const email of unique) {
      const user = userByEmail(ctx.db, email);
      if (user) {
        const existing = membershipOf(ctx.db, group.id, user.id);
        if (existing && existing.role !== 'invited') {
          outcome.already_members.push(email);
          continue;
        }
        upsertInvitation(ctx.db, {
          groupId: group.id,
          userId: user.id,
          permission,
          invitedBy: inviter.id,
          created: now,
        });
        if (!repeat.has(email)) outcome.invited.push(email);
      } else {
        upsertPendingInvitation(ctx.db, { groupId: group.id, email, permission, invitedBy: inviter.id, created: now });
        if (!repeat.has(email)) outcome.pending.push(email);
      }
      // An open invitation takes the new permission but is not mailed again.
      if (repeat.has(email)) {
        outcome.already_invited!.push(email);
        continue;
      }
      notify(ctx, {
        userId: user?.id ?? null,
        email,
        kind: 'group_invitation',
        subject: `${inviter.name || inviter.username} invited you to the group ${group.name} on Laneway`,
        body: [
          `${inviter.name || inviter.username} (${inviter.username}) invited you to join the group "${group.name}"`,
          `with ${permission} permission.`,
          '',
          user
            ? `Open Laneway to accept or decline (group ${group.slug}).`
            : `Create a Laneway account with this e-mail address (${email}) to accept or decline (group ${group.slug}).`,
        ].join('\n'),
        data: {
          group: group.slug,
          group_name: group.name,
          permission,
          invited_by: inviter.username,
          invited_by_name: inviter.name || null,
        },
      });
    }
  })();
  return outcome;
}

/** Turns the invitations and notifications waiting for `email` into the new account's own. */
export function claimInvitations(ctx: StoreContext, userId: number, email: string): void {
  if (!email) return;
  for (const p of pendingInvitationsFor(ctx.db, email)) {
    const invitation = { groupId: p.group_id, userId, permission: p.permission, invitedBy: p.invited_by };
    upsertInvitation(ctx.db, { ...invitation, created: p.created }, 'keep');
  }
  deletePendingInvitationsFor(ctx.db, email);
  claimNotifications(ctx.db, userId, email);
}
