/**
 * Pieces every resource route shares: the integer id in the path, and the ownership and
 * capability fields every resource body carries (API.md, "Groups, ownership and sharing").
 */
import { Type, type Static, type TSchema } from 'typebox';

/** A resource id: a positive integer a JavaScript number holds exactly. */
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** `{id}` in a path: a positive integer. */
export const IdParams = Type.Object({ id: Id });
export type IdParams = Static<typeof IdParams>;

/**
 * `schema` or null, written as a type list (`{type: ['string', 'null']}`) as the service has
 * always declared it, so validation messages and the OpenAPI document stay as they were.
 */
export function Nullable<T extends TSchema & { type: string }>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });
}

/** One of `values`, written `{type: 'string', enum}` as the service has always declared it. */
export function StringEnum<const V extends readonly string[]>(values: V, options: { description?: string } = {}) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
}

/** A JSON object of any keys (metadata, parameters): `{type: 'object', additionalProperties: true}`. */
export function JsonObject(options: { maxProperties?: number; description?: string } = {}) {
  return Type.Unsafe<Record<string, unknown>>({ type: 'object', ...options, additionalProperties: true });
}

/** A file part of a multipart form (its bytes). */
export const FilePart = Type.Unsafe<unknown>({ type: 'string', format: 'binary' });

/** A string or null. */
export const NullableString = Nullable(Type.String());
/** An integer or null. */
export const NullableInteger = Nullable(Type.Integer());

/** owner, group_owner, can_edit and can_share, optional in the schema as presenters give them. */
export const AccessProperties = {
  owner: Type.Optional(NullableString),
  group_owner: Type.Optional(NullableString),
  can_edit: Type.Optional(Type.Boolean()),
  can_share: Type.Optional(Type.Boolean()),
};
