/**
 * Sharing of every owned resource kind (projects, samples, data, executions):
 * POST .../{id}/share/, DELETE .../{id}/share/{slug}/, GET .../{id}/permissions/.
 */
import { Type, type Static } from 'typebox';
import { Permission } from './groups';
import { Id, NullableString, StringEnum } from './resource';

/** Effective access to a resource: full control (owner, admin of the owning group) or a permission. */
export const Access = StringEnum(['full', 'view', 'edit', 'share']);
export type Access = Static<typeof Access>;

export const ShareBody = Type.Object(
  { group: Type.String({ minLength: 1, maxLength: 64 }), permission: Permission },
  { additionalProperties: false },
);
export type ShareBody = Static<typeof ShareBody>;

/** `{id}` of the resource and `{slug}` of the group in DELETE .../share/{slug}/. */
export const ShareParams = Type.Object({ id: Id, slug: Type.String({ maxLength: 64 }) });
export type ShareParams = Static<typeof ShareParams>;

/** One group a resource is shared with. */
export const ShareEntry = Type.Object({ group: Type.String(), name: Type.String(), permission: Permission });
export type ShareEntry = Static<typeof ShareEntry>;

/** One person with access, and what access. */
export const UserAccess = Type.Object({ username: Type.String(), name: Type.String(), access: Access });
export type UserAccess = Static<typeof UserAccess>;

/** Who has access to a resource: its owner, its shares, and every user's effective access. */
export const ResourcePermissions = Type.Object({
  kind: Type.String(),
  id: Type.Integer(),
  owner: NullableString,
  group_owner: NullableString,
  can_edit: Type.Boolean(),
  can_share: Type.Boolean(),
  shares: Type.Array(ShareEntry),
  users: Type.Array(UserAccess),
});
export type ResourcePermissions = Static<typeof ResourcePermissions>;
