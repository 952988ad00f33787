/** A JSON object of any fields, written `{type: 'object', additionalProperties: true}` as the service declares it. */
import { Type } from 'typebox';

export const JsonObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });
