/**
 * The collection convention of the API: `page` (from 1) and `per_page` (default 25, at most
 * 100; more is 400 VALIDATION_ERROR), answered as `{count, page, per_page, items}`.
 */
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../../shared/limits';

/** Querystring schema properties for page and per_page (merge into a route's querystring). */
export const pageQueryProperties = {
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
  per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE },
} as const;

/** A querystring schema with only page and per_page. */
export const pageQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: pageQueryProperties,
} as const;

export interface PageQuery {
  page: number;
  per_page: number;
}

export interface Page<T> {
  count: number;
  page: number;
  per_page: number;
  items: T[];
}

/** LIMIT and OFFSET for a page. */
export function limitOffset(q: PageQuery): { limit: number; offset: number } {
  return { limit: q.per_page, offset: (q.page - 1) * q.per_page };
}

/** The response schema of a page of items. */
export function pageResponseSchema(item: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    required: ['count', 'page', 'per_page', 'items'],
    properties: {
      count: { type: 'integer' },
      page: { type: 'integer' },
      per_page: { type: 'integer' },
      items: { type: 'array', items: item },
    },
  };
}
