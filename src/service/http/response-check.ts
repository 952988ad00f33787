/**
 * Response validation for test runs. Fastify serializes an answer with its route's response
 * schema and drops, without a word, every field the schema does not name; an answer that lacks a
 * required field or has one of another type goes out as it is. Both are holes between what a
 * presenter sends and what the descriptor (src/shared/service-api/endpoints) promises its callers.
 *
 * When LANEWAY_VALIDATE_RESPONSES=1 (set by the test helpers, the vitest config and the
 * Playwright config), every JSON answer of an /api route and of the Flow mount (/flow/api, whose
 * schemas are mostly open objects: there the check finds missing and mistyped fields) is checked
 * against its response schema before it is serialized, with
 * objects closed (a field the schema does not name is an error, unless the schema says otherwise).
 * A hole throws: the request answers 500 INTERNAL and the service logs which route, which status
 * and which field, so the test that met it fails (test-service.ts fails on every logged INTERNAL).
 */
import Ajv, { type ValidateFunction } from 'ajv';

/** True when the service checks its answers against their schemas (test runs). */
export function responseChecksOn(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.LANEWAY_VALIDATE_RESPONSES === '1';
}

/** A copy of `schema` whose objects refuse properties they do not name (where they say nothing else). */
export function closedSchema(schema: unknown, insideAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => closedSchema(s, insideAllOf));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closedSchema(v)]));
    } else if (key === 'allOf') {
      // Each member of an intersection names only its own part: closing one would refuse the others'.
      out[key] = closedSchema(value, true);
    } else if (key !== 'default' && key !== 'examples' && key !== 'const' && key !== 'enum') {
      out[key] = closedSchema(value);
    } else {
      out[key] = value;
    }
  }
  const s = out as { properties?: unknown; additionalProperties?: unknown; patternProperties?: unknown };
  if (!insideAllOf && s.properties && s.additionalProperties === undefined && s.patternProperties === undefined)
    out.additionalProperties = false;
  return out;
}

let ajv: Ajv | null = null;

/** A function that throws when `data` does not fit `schema`; `where` names the route and status. */
export function responseCheck(schema: unknown, where: string): (data: unknown) => void {
  let validate: ValidateFunction | null = null;
  return (data) => {
    // Formats are not checked here: the holes looked for are missing, extra and mistyped fields.
    ajv ??= new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false, validateFormats: false });
    validate ??= ajv.compile(closedSchema(schema) as object);
    if (validate(data)) return;
    const problems = (validate.errors ?? [])
      .slice(0, 10)
      .map((e) => {
        const extra = (e.params as { additionalProperty?: unknown }).additionalProperty;
        const at = e.instancePath || '/';
        return typeof extra === 'string'
          ? `${at}: field ${extra} is not in the schema`
          : `${at}: ${e.message ?? e.keyword}`;
      })
      .join('; ');
    throw new Error(`The answer of ${where} does not fit its response schema: ${problems}`);
  };
}
