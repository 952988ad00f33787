/**
 * Sharing "with its reads and results" (issue 20 item 3). The derived-data rule stays the one
 * rule: bytes follow the data record, so sharing a project, a sample or an execution never
 * opens its files by itself. Asked for, this shares each derived resource too, at `view`, as
 * explicit shares through the same command (each needs the caller's `share` right on it; what
 * they may not share is counted as skipped and stays private). An existing share of a derived
 * resource is left as it is (never lowered).
 */
import type { Permission } from '../../shared/service-api/groups';
import type { ShareIncluded } from '../../shared/service-api/shares';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { accessTo, satisfies } from '../policy/policy';
import type { ResourceKind } from '../policy/resource-kinds';
import {
  executionOutputIds,
  executionSampleIdsOf,
  executionsOnSamples,
  projectSampleIds,
  sampleDataIds,
} from './derived-records.store';
import { memberGroupBySlug, sharesOf } from './shares.store';
import { shareResource } from './shares.commands';

type Ref = { kind: Exclude<ResourceKind, 'project'>; id: number };

/** The resources shared along with `kind` `id`: samples, their reads, executions, their outputs. */
export function derivedResources(ctx: ServiceContext, kind: ResourceKind, id: number): Ref[] {
  const db = ctx.db;
  const out: Ref[] = [];
  const samples = (sampleIds: number[]) => {
    for (const s of sampleIds) {
      out.push({ kind: 'sample', id: s });
      for (const d of sampleDataIds(db, s)) out.push({ kind: 'data', id: d });
    }
  };
  const executions = (executionIds: number[]) => {
    for (const e of executionIds) {
      out.push({ kind: 'execution', id: e });
      for (const d of executionOutputIds(db, e)) out.push({ kind: 'data', id: d });
    }
  };
  if (kind === 'project') {
    const ids = projectSampleIds(db, id);
    samples(ids);
    executions(executionsOnSamples(db, ids));
  } else if (kind === 'sample') {
    for (const d of sampleDataIds(db, id)) out.push({ kind: 'data', id: d });
    executions(executionsOnSamples(db, [id]));
  } else if (kind === 'execution') {
    samples(executionSampleIdsOf(db, id));
    for (const d of executionOutputIds(db, id)) out.push({ kind: 'data', id: d });
  }
  const seen = new Set<string>();
  return out.filter((r) => !seen.has(`${r.kind}:${r.id}`) && seen.add(`${r.kind}:${r.id}`));
}

/** Shares the resource, then (with `withData`) its reads and results; says what went along. */
export function shareWithData(
  ctx: ServiceContext,
  user: AuthUser,
  kind: ResourceKind,
  id: number,
  slug: string,
  permission: Permission,
  withData: boolean,
): ShareIncluded {
  const included: ShareIncluded = { with_data: withData, samples: 0, data: 0, executions: 0, skipped: 0 };
  ctx.db.transaction(() => {
    shareResource(ctx, user, kind, id, slug, permission);
    if (!withData || kind === 'data') return;
    const group = memberGroupBySlug(ctx.db, slug, user.id)!;
    for (const r of derivedResources(ctx, kind, id)) {
      if (sharesOf(ctx.db, r.kind, r.id).some((s) => s.group === group.slug)) continue;
      if (!satisfies(accessTo(ctx.db, r.kind, r.id, user), 'share')) {
        included.skipped++;
        continue;
      }
      shareResource(ctx, user, r.kind, r.id, slug, 'view');
      if (r.kind === 'sample') included.samples++;
      else if (r.kind === 'data') included.data++;
      else included.executions++;
    }
  })();
  return included;
}
