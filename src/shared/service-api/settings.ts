/** GET/PUT /api/admin/settings and GET /api/admin/storage: what a service admin may tune and watch. */
import { Type, type Static } from 'typebox';
import { Id, Nullable } from './resource';

const GiB = 1024 * 1024 * 1024;

/** Every setting with its default (docs/security.md). */
export const SETTINGS_DEFAULTS = {
  /** Bytes each user may store: their data records plus their unfinished uploads. */
  upload_quota_bytes: 100 * GiB,
  /** Unfinished uploads idle this long are deleted with their chunks. */
  upload_expiry_hours: 72,
  /** Invitations one account may send per hour and per day. */
  invitations_per_hour: 20,
  invitations_per_day: 100,
  /** When not empty, invitations go only to addresses in these domains (and their subdomains). */
  invitation_domains: [] as string[],
  /** Webhook targets allowed although private (hosts, IP addresses or CIDR ranges). */
  webhook_allow_list: [] as string[],
};
export type ServiceSettings = typeof SETTINGS_DEFAULTS;

const Domain = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.-]+$' });
const AllowEntry = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9.:/\\[\\]-]+$' });

export const Settings = Type.Object(
  {
    upload_quota_bytes: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    upload_expiry_hours: Type.Integer({ minimum: 1, maximum: 24 * 365 }),
    invitations_per_hour: Type.Integer({ minimum: 0, maximum: 10_000 }),
    invitations_per_day: Type.Integer({ minimum: 0, maximum: 100_000 }),
    invitation_domains: Type.Array(Domain, { maxItems: 100 }),
    webhook_allow_list: Type.Array(AllowEntry, { maxItems: 100 }),
  },
  { additionalProperties: false },
);

export const SettingsPatch = Type.Partial(Settings, { additionalProperties: false, minProperties: 1 });
export type SettingsPatch = Static<typeof SettingsPatch>;

export const StorageUser = Type.Object({
  user_id: Id,
  username: Type.String(),
  bytes: Type.Integer({ description: 'Data records owned plus unfinished uploads' }),
  quota_bytes: Type.Integer(),
});

export const StorageReport = Type.Object({
  free_bytes: Nullable(Type.Integer()),
  total_bytes: Nullable(Type.Integer()),
  largest_users: Type.Array(StorageUser),
});
export type StorageReport = Static<typeof StorageReport>;
