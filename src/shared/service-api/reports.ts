/**
 * On-demand reports: `POST /api/projects/{id}/multiqc` and `POST /api/lanes/{id}/multiqc`
 * build a MultiQC report over the outputs of the completed executions on the project's or the
 * lane's samples (only outputs the caller may view) and store it as a data record of type
 * `multiqc`, downloaded at `/api/data/{id}/download`.
 */
import { Type, type Static } from 'typebox';
import { DataRecord } from './data';

export const MultiqcReportParams = Type.Object(
  { id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) },
  { additionalProperties: false },
);
export type MultiqcReportParams = Static<typeof MultiqcReportParams>;

export const MultiqcReportRequest = Type.Object(
  {
    title: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'The report title; default "Project NAME"' }),
    ),
    group_owner: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
        description: 'Slug of a group of yours to own the report (default: you)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type MultiqcReportRequest = Static<typeof MultiqcReportRequest>;

export const MultiqcReportResponse = Type.Object({
  data: DataRecord,
  download_url: Type.String({ description: 'Where the report is downloaded' }),
  samples: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }), {
    description: 'The samples whose outputs went into the report',
  }),
  executions: Type.Array(Type.Integer(), { description: 'The executions whose outputs went in' }),
  inputs: Type.Integer({ description: 'How many output files MultiQC read' }),
});
export type MultiqcReportResponse = Static<typeof MultiqcReportResponse>;
