/**
 * Accounts and sessions: POST /api/setup, /api/login, /api/logout, GET /api/token, GET /api/me,
 * PUT /api/me/password, and the administrators' /api/users routes.
 */
import { Type, type Static } from 'typebox';
import { Page } from './page';
import { NullableString } from './resource';

/** A username: letters, digits, dot, dash and underscore, starting with a letter or digit. */
export const USERNAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$';
/** Something@something, no spaces: the service checks shape, the mail server the rest. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+$';

export const Username = Type.String({ minLength: 1, maxLength: 64, pattern: USERNAME_PATTERN });
export const Password = Type.String({ minLength: 8, maxLength: 1024 });
export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: EMAIL_PATTERN });
export const PersonName = Type.String({ minLength: 1, maxLength: 200 });

/** The fields every body describing a user carries (the user record and GET /api/me). */
const UserIdentityProperties = {
  id: Type.Integer(),
  username: Type.String(),
  email: Type.String(),
  name: Type.String(),
  is_admin: Type.Boolean(),
  can_run_pipelines: Type.Boolean(),
};

/** What the API shows of a user. */
export const User = Type.Object({ ...UserIdentityProperties, disabled: Type.Boolean(), created: Type.String() });
export type User = Static<typeof User>;

export const UserPage = Page(User);
export type UserPage = Static<typeof UserPage>;

/** Body of POST /api/setup and POST /api/users/. */
export const NewUserBody = Type.Object(
  {
    username: Username,
    password: Password,
    email: Email,
    name: PersonName,
    can_run_pipelines: Type.Optional(Type.Boolean()),
    is_admin: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type NewUserBody = Static<typeof NewUserBody>;

/** Body of PUT /api/users/{id}: at least one change. */
export const UserChangesBody = Type.Object(
  {
    email: Type.Optional(Email),
    name: Type.Optional(PersonName),
    password: Type.Optional(Password),
    is_admin: Type.Optional(Type.Boolean()),
    can_run_pipelines: Type.Optional(Type.Boolean()),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UserChangesBody = Static<typeof UserChangesBody>;

export const LoginBody = Type.Object(
  { username: Type.String({ maxLength: 256 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const LoginResponse = Type.Object({ token: Type.String(), user: User });
export type LoginResponse = Static<typeof LoginResponse>;

/** GET /api/token: a new access token. */
export const TokenResponse = Type.Object({ token: Type.String() });
export type TokenResponse = Static<typeof TokenResponse>;

/** Body of PUT /api/me/password. */
export const PasswordChangeBody = Type.Object(
  { current_password: Type.String({ maxLength: 1024 }), new_password: Password },
  { additionalProperties: false },
);
export type PasswordChangeBody = Static<typeof PasswordChangeBody>;

/** A group the caller belongs to, as GET /api/me lists it. */
export const MeGroup = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  role: Type.String(),
  permission: Type.String(),
});
export type MeGroup = Static<typeof MeGroup>;

/** An open invitation of the caller. */
export const MeInvitation = Type.Object({
  group: Type.String(),
  group_name: Type.String(),
  invited_by: NullableString,
  permission: Type.String(),
});
export type MeInvitation = Static<typeof MeInvitation>;

/** GET /api/me: the user, their groups with roles, and their open invitations. */
export const Me = Type.Object({
  ...UserIdentityProperties,
  groups: Type.Array(MeGroup),
  invitations: Type.Array(MeInvitation),
});
export type Me = Static<typeof Me>;
