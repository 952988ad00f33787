/**
 * JSON-schema validation for routes. Bodies are validated strictly (no type coercion, unknown
 * fields refused when a schema says additionalProperties: false); query strings and path
 * parameters arrive as text, so they are coerced.
 *
 * Each schema is compiled when its route first validates, not when the route is registered:
 * compiling every route's schemas at start-up was most of the service's start time (about
 * 0.3 s of CPU, more on a loaded machine), and most routes are not called in a session.
 */
import { createRequire } from 'node:module';
import Ajv, { type ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { responseCheck, responseChecksOn } from './response-check';

type Stringify = (data: unknown) => string;
let stringifyCompiler: ((schema: unknown) => Stringify) | null = null;

/**
 * Fastify's own response serializer (fast-json-stringify, as its default compiler calls it with
 * no options and no shared schemas, which the service does not add), resolved from fastify's
 * folder so that it is the version fastify was tested with.
 */
function compileStringify(schema: unknown): Stringify {
  if (!stringifyCompiler) {
    const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
    const fastJsonStringify = fromFastify('fast-json-stringify') as (schema: unknown, options: object) => Stringify;
    stringifyCompiler = (s) => fastJsonStringify(s, {});
  }
  return stringifyCompiler(schema);
}

export function installValidation(app: FastifyInstance): void {
  // The two validators are made by the first validation that needs one (each costs some 20 ms).
  let strict: Ajv | null = null;
  let coercing: Ajv | null = null;
  const validatorFor = (httpPart: string | undefined): Ajv =>
    httpPart === 'body'
      ? (strict ??= new Ajv({
          allErrors: true,
          coerceTypes: false,
          useDefaults: true,
          removeAdditional: false,
          strict: false,
        }))
      : (coercing ??= new Ajv({
          allErrors: true,
          coerceTypes: 'array',
          useDefaults: true,
          removeAdditional: false,
          strict: false,
        }));
  app.setValidatorCompiler(({ schema, httpPart }) => {
    let compiled: ValidateFunction | null = null;
    // Fastify reads a failed validation's `errors` from the function it was given.
    const validate = (data: unknown): boolean => {
      compiled ??= validatorFor(httpPart).compile(schema);
      const ok = compiled(data);
      validate.errors = compiled.errors;
      return ok;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate as never;
  });
  // Response schemas likewise: compiled by the first answer of the route and status. In test
  // runs an /api or /flow/api answer is first checked against its schema (response-check.ts).
  const checks = responseChecksOn();
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) => {
    let compiled: Stringify | null = null;
    const check =
      checks && (url.startsWith('/api/') || url.startsWith('/flow/api/'))
        ? responseCheck(schema, `${method} ${url} (${httpStatus})`)
        : null;
    return (data: unknown) => {
      check?.(data);
      return (compiled ??= compileStringify(schema))(data);
    };
  });
}
