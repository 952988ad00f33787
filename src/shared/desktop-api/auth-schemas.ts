/**
 * Desktop API payloads for sign-in and service profiles. The refresh token never crosses to
 * the renderer; the access token does (`auth:access-token`) so that the renderer can call the
 * service directly over HTTP.
 */
import { Type, type Static } from 'typebox';
import { Me as ServiceMe, MeGroup, MeInvitation } from '../service-api/identity';
import { checkPayload } from './payload-check';
import { closed, nullable } from './payload-types';

/** Where the refresh token is kept: the OS keychain, Electron safeStorage, or a 0600 file. */
export const tokenStoreKind = Type.Enum(['keychain', 'safe-storage', 'file']);
export type TokenStoreKind = Static<typeof tokenStoreKind>;

/**
 * The service's `/api/me` (shared/service-api), closed, with the fields older services leave
 * out optional: the desktop contract accepts any service it may be pointed at.
 */
export const me = closed({
  ...ServiceMe.properties,
  groups: Type.Array(closed({ ...MeGroup.properties, permission: Type.Optional(MeGroup.properties.permission) })),
  invitations: Type.Array(
    closed({ ...MeInvitation.properties, group_name: Type.Optional(MeInvitation.properties.group_name) }),
  ),
});
export type Me = Static<typeof me>;

/**
 * Keeps only the fields the contract knows from a service's /api/me body, so that a service
 * that adds fields (a newer version, a remote deployment) cannot break sign-in.
 */
export function projectMe(raw: unknown): Me {
  const r = (raw ?? {}) as Record<string, unknown>;
  const list = (v: unknown) => (Array.isArray(v) ? (v as Array<Record<string, unknown>>) : []);
  const opt = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return checkPayload(me, {
    id: r.id,
    username: r.username,
    email: r.email,
    name: r.name,
    is_admin: r.is_admin,
    can_run_pipelines: r.can_run_pipelines,
    groups: list(r.groups).map((g) => ({ slug: g.slug, name: g.name, role: g.role, permission: opt(g.permission) })),
    invitations: list(r.invitations).map((i) => ({
      group: i.group,
      group_name: opt(i.group_name),
      invited_by: i.invited_by ?? null,
      permission: i.permission,
    })),
  });
}

export const authStatus = closed({
  profile_id: nullable(Type.String()),
  signed_in: Type.Boolean(),
  user: nullable(me),
  /** True when the service has no account yet (`auth:setup` creates the first one). */
  needs_setup: nullable(Type.Boolean()),
  token_store: tokenStoreKind,
  /** Why the preferred store was not used, when it was not. */
  token_store_note: nullable(Type.String()),
});
export type AuthStatus = Static<typeof authStatus>;

export const loginParams = closed({
  username: Type.String({ minLength: 1, maxLength: 150 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export const setupParams = closed({
  username: Type.String({ minLength: 1, maxLength: 150 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  email: Type.String({ maxLength: 254 }),
  name: Type.String({ maxLength: 200 }),
});

export const accessToken = closed({
  token: Type.String(),
  /** ISO-8601; the core refreshes before this, so ask again when it is near. */
  expires_at: Type.String(),
  /** `base_url + "/api"` of the active profile. */
  api_url: Type.String(),
});
export type AccessToken = Static<typeof accessToken>;

export const profileKind = Type.Enum(['embedded', 'remote']);
/** The wire a remote profile speaks: Laneway's `/api` (the default) or a Flow server's. */
export const profileWire = Type.Enum(['laneway', 'flow']);
export const profile = closed({
  id: Type.String(),
  name: Type.String(),
  kind: profileKind,
  /** `flow`: a Flow server (flow.bio, or a Laneway service's `/flow/api`); absent: Laneway. */
  wire: Type.Optional(profileWire),
  /** The remote service's origin; null for the embedded service. */
  url: nullable(Type.String()),
  /** The account signed in last on this profile (its refresh token is in the token store). */
  username: nullable(Type.String()),
  active: Type.Boolean(),
});
export type Profile = Static<typeof profile>;

export const profileList = closed({ profiles: Type.Array(profile), active_id: Type.String() });
export type ProfileList = Static<typeof profileList>;

export const addProfileParams = closed({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  kind: profileKind,
  wire: Type.Optional(profileWire),
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  /** Make it the active profile right away. */
  activate: Type.Optional(Type.Boolean()),
});
export const profileIdParams = closed({ id: Type.String({ minLength: 1, maxLength: 100 }) });
