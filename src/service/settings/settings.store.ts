/**
 * The admin's runtime settings (quotas, upload expiry, invitation and webhook policy), read
 * where they apply so that a change takes effect at once. Missing rows are the defaults.
 */
import { SETTINGS_DEFAULTS, type ServiceSettings, type SettingsPatch } from '../../shared/service-api/settings';
import type { Db } from '../db/database';
import { prepared } from '../db/statements';

/** Every setting, stored values over the defaults. */
export function readSettings(db: Db): ServiceSettings {
  const rows = db.prepare('SELECT key, value FROM service_settings').all() as Array<{ key: string; value: string }>;
  const out: Record<string, unknown> = { ...SETTINGS_DEFAULTS };
  for (const r of rows) if (r.key in SETTINGS_DEFAULTS) out[r.key] = JSON.parse(r.value) as unknown;
  return out as ServiceSettings;
}

/** One setting. */
export function setting<K extends keyof ServiceSettings>(db: Db, key: K): ServiceSettings[K] {
  const row = prepared(db, 'SELECT value FROM service_settings WHERE key = ?').get(key) as
    { value: string } | undefined;
  return row ? (JSON.parse(row.value) as ServiceSettings[K]) : SETTINGS_DEFAULTS[key];
}

/** Stores the given settings (validated by the route's schema) in one transaction. */
export function writeSettings(db: Db, patch: SettingsPatch): ServiceSettings {
  const put = db.prepare(
    'INSERT INTO service_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  db.transaction(() => {
    for (const [k, v] of Object.entries(patch)) {
      if (v !== undefined) put.run(k, JSON.stringify(Array.isArray(v) ? v.map((x: string) => x.toLowerCase()) : v));
    }
  })();
  return readSettings(db);
}
