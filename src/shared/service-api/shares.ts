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
  {
    group: Type.String({ minLength: 1, maxLength: 64 }),
    permission: Permission,
    with_data: Type.Optional(
      Type.Boolean({
        description:
          "Also share (at view) what the resource is made of and produced: a project's samples, their reads, the executions run on them and their outputs; a sample's reads and results; an execution's samples, their reads and its outputs. Default false: each is shared on its own (derived-data rule).",
      }),
    ),
  },
  { additionalProperties: false },
);

/** What a share with `with_data` took along (counts of resources newly shared at view). */
export const ShareIncluded = Type.Object({
  with_data: Type.Boolean(),
  samples: Type.Integer(),
  data: Type.Integer(),
  executions: Type.Integer(),
  /** Derived resources the caller may not share (they stay private). */
  skipped: Type.Integer(),
});
export type ShareIncluded = Static<typeof ShareIncluded>;
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
  /** Only in the answer to a share: what went along with it. */
  included: Type.Optional(ShareIncluded),
});
export type ResourcePermissions = Static<typeof ResourcePermissions>;
