/** /api/api-keys: a user's long-lived, named, revocable API keys (and an admin's view of all). */
import { Type, type Static } from 'typebox';
import { Page, PageQueryProperties } from './page';
import { NullableString } from './resource';

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'lwk_';

/** An API key; the key itself only in the answer to its creation. */
export const ApiKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it' }),
  user: Type.String({ description: 'Username of the owner' }),
  user_id: Type.Integer(),
  created: Type.String(),
  last_used: Type.Unsafe<string | null>({ ...NullableString, description: 'Last accepted use (to the minute)' }),
  expires: Type.Unsafe<string | null>({ ...NullableString, description: 'null: until revoked' }),
  revoked: Type.Unsafe<string | null>({ ...NullableString, description: 'When it was revoked' }),
  key: Type.Optional(Type.String({ description: 'Only in the answer to the creation: shown once' })),
});
export type ApiKey = Static<typeof ApiKey>;

export const ApiKeyPage = Page(ApiKey);
export type ApiKeyPage = Static<typeof ApiKeyPage>;

/** POST /api/api-keys. */
export const NewApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'What the key is for' }),
    expires_in_days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3650, description: 'Days until it stops working (default: never)' }),
    ),
  },
  { additionalProperties: false },
);
export type NewApiKeyBody = Static<typeof NewApiKeyBody>;

/** GET /api/api-keys: your keys; an admin may ask for everyone's (all) or one user's. */
export const ApiKeysQuery = Type.Object(
  {
    ...PageQueryProperties,
    all: Type.Optional(Type.Boolean({ description: "Admin: every user's keys" })),
    user: Type.Optional(Type.String({ minLength: 1, maxLength: 150, description: "Admin: one user's keys" })),
    include_revoked: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type ApiKeysQuery = Static<typeof ApiKeysQuery>;
