/**
 * The text fields of a multipart form, checked against their schema in src/shared/service-api
 * (the same schema the OpenAPI document shows): each field that does not fit is named in one
 * VALIDATION_ERROR with its rule, the schema's description of the field. What a schema cannot
 * say (a layout that parses, a data record the caller may read) the route checks after this.
 */
import type { Static, TObject } from 'typebox';
import { Value } from 'typebox/value';
import { compiledCheck } from '../../shared/compiled-check';
import { errors } from './api-error';

/**
 * An empty bag for a form's fields, keyed by names the client picks: without a prototype, so
 * that a field named `__proto__`, `constructor` or `toString` is a field like any other. On a
 * plain object such a name found the inherited member, and pushing onto it threw inside
 * busboy's parser, which ended the whole service.
 */
export const fieldBag = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/** The field a schema error is about: the first step of its path, or the missing property. */
function fieldOf(instancePath: string, params: unknown): string {
  const first = instancePath.split('/')[1];
  if (first) return first;
  const p = (params ?? {}) as { requiredProperties?: unknown };
  const named = Array.isArray(p.requiredProperties) ? p.requiredProperties[0] : undefined;
  return typeof named === 'string' ? named : 'form';
}

/** The fields typed by `schema`; throws VALIDATION_ERROR naming every field that does not fit. */
export function formFields<T extends TObject>(schema: T, raw: Record<string, string>, message: string): Static<T> {
  // The compiled check: every file of a folder of small files pays it (shared/compiled-check.ts).
  if (compiledCheck(schema)(raw)) return raw as Static<T>;
  // A refusal is rare: its errors come from the walking checker, which names each one.
  const bad: Record<string, string> = {};
  for (const e of Value.Errors(schema, raw)) {
    const field = fieldOf(e.instancePath, e.params);
    const rule = (schema.properties[field] as { description?: unknown } | undefined)?.description;
    bad[field] ??= e.keyword === 'required' ? 'required' : typeof rule === 'string' ? rule : e.message;
  }
  throw errors.validation(bad, message);
}
