/**
 * The owned resource kinds: their table and their URL segment. Later areas create the tables;
 * the policy and the share routes serve every kind whose table exists.
 */
import type { Db } from '../db/database';
import { tableExists } from './policy.store';

export const RESOURCE_KINDS = {
  project: { table: 'projects', segment: 'projects', label: 'Project' },
  sample: { table: 'samples', segment: 'samples', label: 'Sample' },
  data: { table: 'data_files', segment: 'data', label: 'Data file' },
  execution: { table: 'executions', segment: 'executions', label: 'Execution' },
} as const;

export type ResourceKind = keyof typeof RESOURCE_KINDS;

export const RESOURCE_KIND_NAMES = Object.keys(RESOURCE_KINDS) as ResourceKind[];

/** The kind served under a URL segment (`projects` -> project), or undefined. */
export function kindForSegment(segment: string): ResourceKind | undefined {
  return RESOURCE_KIND_NAMES.find((k) => RESOURCE_KINDS[k].segment === segment);
}

const known = new WeakMap<Db, Set<string>>();

/** True when the kind's table exists in this database (tables never disappear, so a yes is cached). */
export function kindTableExists(db: Db, kind: ResourceKind): boolean {
  const table = RESOURCE_KINDS[kind].table;
  const seen = known.get(db) ?? new Set<string>();
  if (seen.has(table)) return true;
  const exists = tableExists(db, table);
  if (exists) {
    seen.add(table);
    known.set(db, seen);
  }
  return exists;
}
