/** The queries behind the invitation policy: mails an account sent lately, open invitations. */
import type { Db } from '../db/database';

/** Invitation notifications (each one mail) sent by `username` since `since` (ISO). */
export function invitationsSentSince(db: Db, username: string, since: string): number {
  return (
    db
      .prepare(
        `SELECT count(*) AS n FROM notifications
          WHERE kind = 'group_invitation' AND json_extract(data, '$.invited_by') = ? AND created >= ?`,
      )
      .get(username, since) as { n: number }
  ).n;
}

/** True when `email` already has an open invitation to the group (pending, or an invited account). */
export function alreadyInvited(db: Db, groupId: number, email: string): boolean {
  const pending = db
    .prepare('SELECT 1 FROM pending_invitations WHERE group_id = ? AND lower(email) = lower(?)')
    .get(groupId, email);
  if (pending) return true;
  return !!db
    .prepare(
      `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.group_id = ? AND m.role = 'invited' AND lower(u.email) = lower(?)`,
    )
    .get(groupId, email);
}
