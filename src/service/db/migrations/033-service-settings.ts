import type { Migration } from './index';

/**
 * Settings an admin changes while the service runs (quotas, expiry, invitation and webhook
 * policy): one row per setting, the value as JSON; a missing row means the default.
 */
export const m033ServiceSettings: Migration = {
  version: 33,
  name: 'service-settings',
  up: `
    CREATE TABLE service_settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;
  `,
};
