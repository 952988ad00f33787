/** The JSON of a group: its fields, the caller's role, its members and (for admins) pending invitations. */
import type { GroupDetail, GroupSummary } from '../../shared/service-api/groups';
import type { Db } from '../db/database';
import { memberCount, membersOf, pendingInvitationsOf, type GroupRow, type MembershipRow } from './groups.store';

/** The group as the caller sees it in a list. */
export function presentGroupSummary(
  db: Db,
  group: GroupRow,
  mine: Pick<MembershipRow, 'role' | 'permission'>,
): GroupSummary {
  return {
    slug: group.slug,
    name: group.name,
    description: group.description,
    created: group.created,
    role: mine.role,
    permission: mine.permission,
    member_count: memberCount(db, group.id),
  };
}

/** The group's details as the caller sees them. */
export function presentGroup(db: Db, group: GroupRow, mine: Pick<MembershipRow, 'role' | 'permission'>): GroupDetail {
  const body: GroupDetail = { ...presentGroupSummary(db, group, mine), members: membersOf(db, group.id) };
  if (mine.role === 'admin') body.pending_invitations = pendingInvitationsOf(db, group.id);
  return body;
}
