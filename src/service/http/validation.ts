/**
 * JSON-schema validation for routes. Bodies are validated strictly (no type coercion, unknown
 * fields refused when a schema says additionalProperties: false); query strings and path
 * parameters arrive as text, so they are coerced.
 */
import Ajv from 'ajv';
import type { FastifyInstance } from 'fastify';

export function installValidation(app: FastifyInstance): void {
  const strict = new Ajv({
    allErrors: true,
    coerceTypes: false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  const coercing = new Ajv({
    allErrors: true,
    coerceTypes: 'array',
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema) as never;
  });
}
