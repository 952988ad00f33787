/** The identity area's migrations (numbers 2-9), listed once for the migration index. */
import { m002Identity } from './002-identity';
import { m003Groups } from './003-groups';
import { m004SharingProjects } from './004-sharing-projects';
import { m005Notifications } from './005-notifications';
import { m006ApiKeys } from './006-api-keys';
import type { Migration } from './index';

export const identityMigrations: readonly Migration[] = [
  m002Identity,
  m003Groups,
  m004SharingProjects,
  m005Notifications,
  m006ApiKeys,
];
