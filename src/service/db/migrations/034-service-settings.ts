import type { Migration } from './index';

/**
 * Settings an admin changes while the service runs (quotas, expiry, invitation and webhook
 * policy): one row per setting, the value as JSON; a missing row means the default. And who
 * made each share (issue 24): someone holding `share` may remove or change only the shares
 * they made themselves, never the owner's (NULL: made before this, the owner's to change).
 */
export const m034ServiceSettings: Migration = {
  version: 34,
  name: 'service-settings',
  up: `
    CREATE TABLE service_settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;
    ALTER TABLE shares ADD COLUMN shared_by INTEGER REFERENCES users(id) ON DELETE SET NULL;
  `,
};
