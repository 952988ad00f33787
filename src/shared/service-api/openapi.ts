/**
 * GET /api/openapi.json: the service's OpenAPI 3.1 document, built from the route schemas
 * (service/http/openapi.ts). Its top-level fields are named; what is under `paths` and
 * `components` is OpenAPI's own vocabulary, left open here.
 */
import { Type, type Static } from 'typebox';

const Open = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

export const OpenApiDocument = Type.Object({
  openapi: Type.String(),
  info: Type.Object({
    title: Type.String(),
    version: Type.String(),
    license: Type.Optional(Type.Object({ name: Type.String(), identifier: Type.Optional(Type.String()) })),
  }),
  servers: Type.Array(Type.Object({ url: Type.String(), description: Type.Optional(Type.String()) })),
  components: Open,
  security: Type.Array(Open),
  /** Operations by OpenAPI path (`/api/lanes/{id}`) and lower-case method. */
  paths: Type.Record(Type.String(), Open),
});
export type OpenApiDocument = Static<typeof OpenApiDocument>;
