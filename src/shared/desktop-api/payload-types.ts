/**
 * The two shapes every desktop API schema needs beyond TypeBox's own builders: closed objects
 * (an unknown key is refused, so a typo never passes silently; only own keys count, so
 * inherited names such as `toString` are unknown keys too) and nullable values.
 */
import { Type, type TProperties, type TSchema } from 'typebox';

/** An object with exactly these properties (optional ones marked with Type.Optional). */
export function closed<P extends TProperties>(properties: P) {
  return Type.Object(properties, { additionalProperties: false });
}

/** The value or null. */
export function nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}
