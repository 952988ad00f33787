/**
 * Invitations by e-mail address. An address with an account becomes an Invited membership at
 * once; an address without one waits in pending_invitations until an account with that address
 * is created (or its e-mail changed to it). Either way the invitee is notified (and mailed).
 */
import type { ServiceContext } from '../context';
import { claimNotifications, notify } from '../notifications/notifications.store';
import type { Permission } from '../policy/policy';
import { userByEmail } from '../identity/users.store';

export interface InviteOutcome {
  invited: string[];
  pending: string[];
  already_members: string[];
}

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
  const outcome: InviteOutcome = { invited: [], pending: [], already_members: [] };
  const now = new Date(ctx.clock.now()).toISOString();
  const unique = [...new Map(emails.map((e) => [e.trim().toLowerCase(), e.trim()])).values()];
  ctx.db.transaction(() => {
    for (const email of unique) {
      const user = userByEmail(ctx.db, email);
      if (user) {
        const existing = ctx.db
          .prepare('SELECT role FROM memberships WHERE group_id = ? AND user_id = ?')
          .get(group.id, user.id) as { role: string } | undefined;
        if (existing && existing.role !== 'invited') {
          outcome.already_members.push(email);
          continue;
        }
        ctx.db
          .prepare(
            `INSERT INTO memberships (group_id, user_id, role, permission, invited_by, created)
             VALUES (?, ?, 'invited', ?, ?, ?)
             ON CONFLICT (group_id, user_id) DO UPDATE SET permission = excluded.permission,
               invited_by = excluded.invited_by`,
          )
          .run(group.id, user.id, permission, inviter.id, now);
        outcome.invited.push(email);
      } else {
        ctx.db
          .prepare(
            `INSERT INTO pending_invitations (group_id, email, permission, invited_by, created) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (group_id, email) DO UPDATE SET permission = excluded.permission,
               invited_by = excluded.invited_by`,
          )
          .run(group.id, email, permission, inviter.id, now);
        outcome.pending.push(email);
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
        data: { group: group.slug, group_name: group.name, permission, invited_by: inviter.username },
      });
    }
  })();
  return outcome;
}

/** Turns the invitations and notifications waiting for `email` into the new account's own. */
export function claimInvitations(ctx: ServiceContext, userId: number, email: string): void {
  if (!email) return;
  const pending = ctx.db
    .prepare('SELECT group_id, permission, invited_by, created FROM pending_invitations WHERE email = ?')
    .all(email) as Array<{ group_id: number; permission: Permission; invited_by: number | null; created: string }>;
  for (const p of pending) {
    ctx.db
      .prepare(
        `INSERT INTO memberships (group_id, user_id, role, permission, invited_by, created)
         VALUES (?, ?, 'invited', ?, ?, ?) ON CONFLICT (group_id, user_id) DO NOTHING`,
      )
      .run(p.group_id, userId, p.permission, p.invited_by, p.created);
  }
  ctx.db.prepare('DELETE FROM pending_invitations WHERE email = ?').run(email);
  claimNotifications(ctx, userId, email);
}
