/**
 * The service's one error body, `{error, code, status}` (service-interface.md; API.md's code
 * table): every 4xx and 5xx answers it. The OpenAPI document names it `Error`.
 */
import { Type, type Static } from 'typebox';

export const ErrorBody = Type.Object({
  error: Type.String({ description: 'A message for people' }),
  code: Type.String({ description: "A stable code from API.md's table" }),
  status: Type.Integer({ description: 'The HTTP status, repeated' }),
});
export type ErrorBody = Static<typeof ErrorBody>;
