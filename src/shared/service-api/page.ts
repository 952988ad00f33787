/**
 * The collection convention of the API: `page` (from 1) and `per_page` (default 25, at most
 * 100; more is 400 VALIDATION_ERROR), answered as `{count, page, per_page, items}`.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../limits';

/** Querystring properties for page and per_page; spread them into a route's own query object. */
export const PageQueryProperties = {
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  per_page: Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE }),
};

/** A querystring with only page and per_page. */
export const PageQuery = Type.Object(PageQueryProperties, { additionalProperties: false });
export type PageQuery = Static<typeof PageQuery>;

/** The body of one page of `item`. */
export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    count: Type.Integer(),
    page: Type.Integer(),
    per_page: Type.Integer(),
    items: Type.Array(item),
  });
}

/** One page of items as the client reads it. */
export interface PageOf<T> {
  count: number;
  page: number;
  per_page: number;
  items: T[];
}
