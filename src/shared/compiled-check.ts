/**
 * TypeBox's compiled check of a schema, made at its first use and kept for that schema. The
 * walking check (`Value.Check`) follows the schema on every call: some 12 µs warm for an
 * upload's form fields, 0.1 to 0.2 ms for a desktop event; the compiled one is a fraction of a
 * microsecond, and a folder of small files or a plate of samples pays it per file (issue 21).
 * It generates code: the service and the desktop core use it, never the renderer, whose
 * content security policy forbids that (the renderer keeps payload-check.ts's walking check).
 */
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

const compiled = new WeakMap<TSchema, (value: unknown) => boolean>();

/** The compiled check of `schema` (true when the value fits). */
export function compiledCheck(schema: TSchema): (value: unknown) => boolean {
  let check = compiled.get(schema);
  if (!check) {
    const validator = Compile(schema);
    compiled.set(schema, (check = (value) => validator.Check(value)));
  }
  return check;
}
