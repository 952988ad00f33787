/**
 * Desktop API payloads for sign-in and service profiles. The refresh token never crosses to
 * the renderer; the access token does (`auth:access-token`) so that the renderer can call the
 * service directly over HTTP.
 */
import { s, type Infer } from '../schema';

/** Where the refresh token is kept: the OS keychain, Electron safeStorage, or a 0600 file. */
export const tokenStoreKind = s.enum(['keychain', 'safe-storage', 'file'] as const);
export type TokenStoreKind = Infer<typeof tokenStoreKind>;

export const me = s.object({
  id: s.number({ int: true }),
  username: s.string(),
  email: s.string(),
  name: s.string(),
  is_admin: s.boolean(),
  can_run_pipelines: s.boolean(),
  groups: s.array(
    s.object({ slug: s.string(), name: s.string(), role: s.string(), permission: s.optional(s.string()) }),
  ),
  invitations: s.array(
    s.object({
      group: s.string(),
      group_name: s.optional(s.string()),
      invited_by: s.nullable(s.string()),
      permission: s.string(),
    }),
  ),
});
export type Me = Infer<typeof me>;

/**
 * Keeps only the fields the contract knows from a service's /api/me body, so that a service
 * that adds fields (a newer version, a remote deployment) cannot break sign-in.
 */
export function projectMe(raw: unknown): Me {
  const r = (raw ?? {}) as Record<string, unknown>;
  const list = (v: unknown) => (Array.isArray(v) ? (v as Array<Record<string, unknown>>) : []);
  const opt = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return me.parse({
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

export const authStatus = s.object({
  profile_id: s.nullable(s.string()),
  signed_in: s.boolean(),
  user: s.nullable(me),
  /** True when the service has no account yet (`auth:setup` creates the first one). */
  needs_setup: s.nullable(s.boolean()),
  token_store: tokenStoreKind,
  /** Why the preferred store was not used, when it was not. */
  token_store_note: s.nullable(s.string()),
});
export type AuthStatus = Infer<typeof authStatus>;

export const loginParams = s.object({
  username: s.string({ min: 1, max: 150 }),
  password: s.string({ min: 1, max: 1024 }),
});
export const setupParams = s.object({
  username: s.string({ min: 1, max: 150 }),
  password: s.string({ min: 1, max: 1024 }),
  email: s.string({ max: 254 }),
  name: s.string({ max: 200 }),
});

export const accessToken = s.object({
  token: s.string(),
  /** ISO-8601; the core refreshes before this, so ask again when it is near. */
  expires_at: s.string(),
  /** `base_url + "/api"` of the active profile. */
  api_url: s.string(),
});
export type AccessToken = Infer<typeof accessToken>;

export const profileKind = s.enum(['embedded', 'remote'] as const);
export const profile = s.object({
  id: s.string(),
  name: s.string(),
  kind: profileKind,
  /** The remote service's origin; null for the embedded service. */
  url: s.nullable(s.string()),
  /** The account signed in last on this profile (its refresh token is in the token store). */
  username: s.nullable(s.string()),
  active: s.boolean(),
});
export type Profile = Infer<typeof profile>;

export const profileList = s.object({ profiles: s.array(profile), active_id: s.string() });
export type ProfileList = Infer<typeof profileList>;

export const addProfileParams = s.object({
  name: s.string({ min: 1, max: 100 }),
  kind: profileKind,
  url: s.optional(s.string({ min: 1, max: 2000 })),
  /** Make it the active profile right away. */
  activate: s.optional(s.boolean()),
});
export const profileIdParams = s.object({ id: s.string({ min: 1, max: 100 }) });
