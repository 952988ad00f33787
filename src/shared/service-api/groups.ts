/**
 * Groups and memberships: /api/groups/ and /api/groups/{slug}/... (paths end with a slash as the
 * spec shows; the slash-less path is served too).
 */
import { Type, type Static } from 'typebox';
import { Email } from './identity';
import { Page } from './page';
import { StringEnum } from './resource';

/** The roles of a membership: an invitation not yet accepted, a member, an admin. */
export const GROUP_ROLES = ['invited', 'member', 'admin'] as const;
export const GroupRole = StringEnum(GROUP_ROLES);
export type GroupRole = Static<typeof GroupRole>;

/** What a member may do with the group's resources (and a share's level). */
export const PERMISSIONS = ['view', 'edit', 'share'] as const;
export const Permission = StringEnum(PERMISSIONS);
export type Permission = Static<typeof Permission>;

/** `{slug}` in a path. */
export const GroupSlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 64 }) });
export type GroupSlugParams = Static<typeof GroupSlugParams>;

/** The group as the caller sees it in a list. */
export const GroupSummary = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  description: Type.String(),
  created: Type.String(),
  role: GroupRole,
  permission: Permission,
  member_count: Type.Integer(),
});
export type GroupSummary = Static<typeof GroupSummary>;

export const GroupPage = Page(GroupSummary);
export type GroupPage = Static<typeof GroupPage>;

/** One membership (invitations included) as a group's details list it. */
export const GroupMember = Type.Object({
  username: Type.String(),
  name: Type.String(),
  email: Type.String(),
  role: GroupRole,
  permission: Permission,
});
export type GroupMember = Static<typeof GroupMember>;

/** An invitation to an address that has no account yet (shown to the group's admins). */
export const PendingInvitation = Type.Object({ email: Type.String(), permission: Permission });
export type PendingInvitation = Static<typeof PendingInvitation>;

const GroupDetailProperties = {
  ...GroupSummary.properties,
  members: Type.Array(GroupMember),
  pending_invitations: Type.Optional(Type.Array(PendingInvitation)),
};

/** The group's details: its members, and for its admins the pending invitations. */
export const GroupDetail = Type.Object(GroupDetailProperties);
export type GroupDetail = Static<typeof GroupDetail>;

const GroupFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 2000 }),
};

export const NewGroupBody = Type.Object(
  { name: GroupFields.name, description: Type.Optional(GroupFields.description) },
  { additionalProperties: false },
);
export type NewGroupBody = Static<typeof NewGroupBody>;

export const GroupChangesBody = Type.Object(
  { name: Type.Optional(GroupFields.name), description: Type.Optional(GroupFields.description) },
  { additionalProperties: false, minProperties: 1 },
);
export type GroupChangesBody = Static<typeof GroupChangesBody>;

/** DELETE /api/groups/{slug}/: what the deleting admin received, by resource kind. */
export const GroupDeleted = Type.Object({
  deleted: Type.String(),
  handed_over_to: Type.String(),
  handed_over: Type.Unsafe<Record<string, number>>({ type: 'object', additionalProperties: { type: 'integer' } }),
});
export type GroupDeleted = Static<typeof GroupDeleted>;

export const InviteBody = Type.Object(
  { emails: Type.Array(Email, { minItems: 1, maxItems: 100 }), permission: Permission },
  { additionalProperties: false },
);
export type InviteBody = Static<typeof InviteBody>;

/** The addresses of an invitation, by outcome. */
export const InviteOutcome = Type.Object({
  invited: Type.Array(Type.String()),
  pending: Type.Array(Type.String()),
  already_members: Type.Array(Type.String()),
  already_invited: Type.Optional(
    Type.Array(Type.String(), { description: 'Addresses with an open invitation to this group: not mailed again' }),
  ),
});
export type InviteOutcome = Static<typeof InviteOutcome>;

/** POST /api/groups/{slug}/invite/: the group's details and each address's outcome. */
export const InviteResponse = Type.Object({ ...GroupDetailProperties, ...InviteOutcome.properties });
export type InviteResponse = Static<typeof InviteResponse>;

/** decline and leave: the caller no longer has a membership. */
export const LeftGroup = Type.Object({ group: Type.String(), membership: Type.Null() });
export type LeftGroup = Static<typeof LeftGroup>;

const MemberUsername = Type.String({ minLength: 1, maxLength: 64 });

/** promote and demote. */
export const UsernameBody = Type.Object({ username: MemberUsername }, { additionalProperties: false });
export type UsernameBody = Static<typeof UsernameBody>;

/** remove: a member or invitee by username, or a pending invitation by e-mail address. */
export const RemoveMemberBody = Type.Object(
  { username: Type.Optional(MemberUsername), email: Type.Optional(Email) },
  { additionalProperties: false, minProperties: 1, maxProperties: 1 },
);
export type RemoveMemberBody = Static<typeof RemoveMemberBody>;

export const MemberPermissionBody = Type.Object(
  { username: MemberUsername, permission: Permission },
  { additionalProperties: false },
);
export type MemberPermissionBody = Static<typeof MemberPermissionBody>;
