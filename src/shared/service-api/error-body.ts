/**
 * The service's one error body, `{error, code, status}` (service-interface.md; API.md's code
 * table): every 4xx and 5xx answers it, with the extras its code carries. The OpenAPI document
 * names it `Error`; the clients read the extras through ServiceError's typed accessors.
 */
import { Type, type Static } from 'typebox';
import { NullableInteger } from './resource';

/** A problem in an annotation sheet, by row and column (INVALID_ANNOTATION, ANNOTATION_WARNINGS). */
export const SheetIssue = Type.Object({
  row: Type.Integer({ description: 'The sheet row (1 is the header row), 0 for the sheet as a whole' }),
  column: Type.String(),
  message: Type.String(),
});
export type SheetIssue = Static<typeof SheetIssue>;

/** A sample a pipeline version cannot use, and why (INVALID_SAMPLES). */
export const InvalidSample = Type.Object({ sample_id: NullableInteger, reason: Type.String() });
export type InvalidSample = Static<typeof InvalidSample>;

/** The extras of the error body, each present with the codes that carry it. */
export const ErrorExtras = {
  /** VALIDATION_ERROR, INVALID_PARAMETERS: a message per field (`emails.1` inside a list). */
  fields: Type.Record(Type.String(), Type.String()),
  /** INVALID_ANNOTATION: the sheet's errors. */
  rows: Type.Array(SheetIssue),
  /** ANNOTATION_WARNINGS: the sheet's warnings, to accept with ignore_warnings. */
  warnings: Type.Array(SheetIssue),
  /** DUPLICATE_FILE: the data record that already holds these bytes. */
  data_id: Type.Integer(),
  /** INVALID_SAMPLES. */
  invalid_samples: Type.Array(InvalidSample),
  /** MISSING_PARAMETERS: the names of the required parameters not given. */
  missing_params: Type.Array(Type.String()),
};

export const ErrorBody = Type.Object({
  error: Type.String({ description: 'A message for people' }),
  code: Type.String({ description: "A stable code from API.md's table" }),
  status: Type.Integer({ description: 'The HTTP status, repeated' }),
  fields: Type.Optional(ErrorExtras.fields),
  rows: Type.Optional(ErrorExtras.rows),
  warnings: Type.Optional(ErrorExtras.warnings),
  data_id: Type.Optional(ErrorExtras.data_id),
  invalid_samples: Type.Optional(ErrorExtras.invalid_samples),
  missing_params: Type.Optional(ErrorExtras.missing_params),
});
export type ErrorBody = Static<typeof ErrorBody>;
