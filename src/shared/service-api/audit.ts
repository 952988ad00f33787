/** GET /api/audit: the audit log for service administrators, newest first. */
import { Type, type Static } from 'typebox';
import { Page, PageQueryProperties } from './page';
import { Id, JsonObject, NullableInteger, NullableString, StringEnum } from './resource';

/** What a person did to a resource. */
export const AUDIT_ACTIONS = [
  'created',
  'shared',
  'unshared',
  'ran',
  'resumed',
  'cancelled',
  'downloaded',
  'deleted',
  'revoked',
  'refused',
  /** Renames, rights, account changes, webhook changes (details say what changed). */
  'updated',
  'password_changed',
  /** Failed sign-ins, summed per username and address over a minute (details: count, address). */
  'sign_in_failed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The kinds of resource the log names. */
export const AUDIT_KINDS = [
  'project',
  'sample',
  'data',
  'lane',
  'execution',
  'group',
  'user',
  'webhook',
  'api_key',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** One entry of the log. */
export const AuditEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ description: 'ISO-8601 UTC time of the action' }),
  user: Type.Unsafe<string | null>({ ...NullableString, description: 'Who did it (null: the service itself)' }),
  user_id: Type.Optional(NullableInteger),
  action: StringEnum(AUDIT_ACTIONS),
  resource: Type.Object({
    kind: StringEnum(AUDIT_KINDS),
    id: NullableInteger,
    name: NullableString,
  }),
  details: JsonObject(),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditPage = Page(AuditEntry);
export type AuditPage = Static<typeof AuditPage>;

/** Filters: user (username), action, resource kind and id, and a time range (since inclusive, until exclusive). */
export const AuditQuery = Type.Object(
  {
    ...PageQueryProperties,
    user: Type.Optional(Type.String({ minLength: 1, maxLength: 150 })),
    action: Type.Optional(StringEnum(AUDIT_ACTIONS)),
    resource_kind: Type.Optional(StringEnum(AUDIT_KINDS)),
    resource_id: Type.Optional(Id),
    since: Type.Optional(Type.String({ maxLength: 40 })),
    until: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;
