/**
 * The text fields of a multipart form, checked against their schema in src/shared/service-api
 * (the same schema the OpenAPI document shows): each field that does not fit is named in one
 * VALIDATION_ERROR with its rule, the schema's description of the field. What a schema cannot
 * say (a layout that parses, a data record the caller may read) the route checks after this.
 */
import type { Static, TObject } from 'typebox';
import { Value } from 'typebox/value';
import { errors } from './api-error';

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
  if (Value.Check(schema, raw)) return raw;
  const bad: Record<string, string> = {};
  for (const e of Value.Errors(schema, raw)) {
    const field = fieldOf(e.instancePath, e.params);
    const rule = (schema.properties[field] as { description?: unknown } | undefined)?.description;
    bad[field] ??= e.keyword === 'required' ? 'required' : typeof rule === 'string' ? rule : e.message;
  }
  throw errors.validation(bad, message);
}
