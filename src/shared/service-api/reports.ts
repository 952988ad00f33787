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

/** One sample's QC at a glance: GET /api/executions/{id}/qc and GET /api/projects/{id}/qc. */
export const QcStatus = Type.Union([Type.Literal('pass'), Type.Literal('warn'), Type.Literal('fail')]);
export type QcStatus = Static<typeof QcStatus>;

export const QcSampleRow = Type.Object({
  sample_id: Type.Union([Type.Integer(), Type.Null()]),
  sample: Type.String(),
  execution_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The QC run the figures come from' }),
  files: Type.Integer({ description: 'Read files checked (2 for a paired sample)' }),
  reads: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Reads of the largest file (read pairs when paired)',
  }),
  q30_rate: Type.Union([Type.Number(), Type.Null()], { description: 'Share of bases at Q30 or better, 0 to 1' }),
  gc_content: Type.Union([Type.Number(), Type.Null()], { description: 'Share of G and C bases, 0 to 1' }),
  adapter_percent: Type.Union([Type.Number(), Type.Null()], {
    description: 'Highest percent of reads with a known adapter, any file',
  }),
  modules: Type.Array(Type.Object({ module: Type.String(), title: Type.String(), status: QcStatus }), {
    description: "FastQC's verdict per module, the worst over the sample's files",
  }),
  verdict: Type.Union([QcStatus, Type.Null()], { description: 'The worst module; null when no QC ran' }),
});
export type QcSampleRow = Static<typeof QcSampleRow>;

export const QcSummaryResponse = Type.Object({ samples: Type.Array(QcSampleRow) });
export type QcSummaryResponse = Static<typeof QcSummaryResponse>;

/** The samples of one screen's page whose QC figures are wanted (at most 100, comma-separated ids). */
export const SamplesQcQuery = Type.Object(
  {
    ids: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,15}(,[1-9][0-9]{0,15}){0,99}$',
        description: 'Comma-separated sample ids, at most 100 (none: no rows)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SamplesQcQuery = Static<typeof SamplesQcQuery>;
