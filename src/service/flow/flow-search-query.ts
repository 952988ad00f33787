/**
 * The sort and filters Flow's search lists share (FLOW-WIRE.md P1-9, P1-17): `sort` one of
 * `-created` (the default), `created`, `name`, `-name`; `owned=true`; `created_gt` and
 * `created_lt` as Unix seconds. A bad value is Flow's 400; unknown parameters are ignored.
 */
import { Type } from 'typebox';
import type { AuthUser } from '../auth/authenticate';
import { badRequest } from './flow-errors';

export const SearchCommon = {
  sort: Type.Optional(Type.String({ maxLength: 20 })),
  owned: Type.Optional(Type.String({ maxLength: 10 })),
  created_gt: Type.Optional(Type.String({ maxLength: 20 })),
  created_lt: Type.Optional(Type.String({ maxLength: 20 })),
};

export interface SearchOptions {
  order?: 'newest' | 'oldest' | 'name' | '-name';
  owner?: number;
  createdAfter?: string;
  createdBefore?: string;
}

const ORDER = { '-created': 'newest', created: 'oldest', name: 'name', '-name': '-name' } as const;

/** The store filter fields for a search's sort, owned and created bounds. */
export function searchOptions(
  q: { sort?: string; owned?: string; created_gt?: string; created_lt?: string },
  user: AuthUser,
): SearchOptions {
  const out: SearchOptions = {};
  if (q.sort) {
    const order = ORDER[q.sort as keyof typeof ORDER];
    if (!order) throw badRequest('sort must be one of -created, created, name, -name');
    out.order = order;
  }
  if ((q.owned ?? '').toLowerCase() === 'true') out.owner = user.id;
  for (const [key, field] of [
    ['created_gt', 'createdAfter'],
    ['created_lt', 'createdBefore'],
  ] as const) {
    const v = q[key];
    if (v === undefined || v === '') continue;
    if (!/^\d{1,12}$/.test(v)) throw badRequest(`${key} must be a Unix time in seconds`);
    out[field] = new Date(Number(v) * 1000).toISOString();
  }
  return out;
}
