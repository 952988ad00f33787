/**
 * Checks a desktop API payload against its TypeBox schema. The dispatcher checks every call's
 * parameters and every event it emits; a payload that breaks the contract is refused whole
 * (nothing is coerced or stripped), with the first problem named by its path.
 */
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** A payload that does not match its schema; `path` is a JSON pointer ('' for the whole value). */
export class PayloadError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path || 'value'}: ${problem}`);
    this.name = 'PayloadError';
  }
}

/** Returns the value typed by its schema, or throws PayloadError. */
export function checkPayload<T extends TSchema>(schema: T, value: unknown): Static<T> {
  if (Value.Check(schema, value)) return value as Static<T>;
  const [first] = Value.Errors(schema, value);
  throw new PayloadError(first?.instancePath ?? '', first?.message ?? 'does not match the contract');
}
