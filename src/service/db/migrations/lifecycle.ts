/** The execution lifecycle area's migrations (numbers 30-39): audit, re-runs, webhooks. */
import { m030AuditLog } from './030-audit-log';
import { m031RerunResume } from './031-rerun-resume';
import { m032Webhooks } from './032-webhooks';
import { m034ServiceSettings } from './034-service-settings';
import type { Migration } from './index';

export const lifecycleMigrations: readonly Migration[] = [
  m030AuditLog,
  m031RerunResume,
  m032Webhooks,
  m034ServiceSettings,
];
