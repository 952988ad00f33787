/** The endpoints of service/reports/reports.routes.ts: MultiQC over a project's or a lane's samples, QC at a glance. */
import { op } from '../endpoint';
import {
  MultiqcReportParams,
  MultiqcReportRequest,
  MultiqcReportResponse,
  QcSummaryResponse,
  SamplesQcQuery,
} from '../reports';

function multiqcEndpoint<const S extends 'projects' | 'lanes'>(segment: S) {
  const what = segment === 'projects' ? 'project' : 'lane';
  return op({
    method: 'POST',
    path: `/api/${segment}/:id/multiqc`,
    operationId: segment === 'projects' ? 'buildProjectMultiqc' : 'buildLaneMultiqc',
    summary: `Build a MultiQC report over the outputs of a ${what}'s samples`,
    description:
      `Runs MultiQC over the outputs of the completed executions on the ${what}'s samples (per pipeline and ` +
      'sample the newest one) that you may view: Laneway QC, samtools flagstat and markdup, bcftools stats. ' +
      'The report is stored as a data record of type multiqc (source report); download it at ' +
      '/api/data/{id}/download. 409 CONFLICT when multiqc is not installed or nothing it reads is there.',
    tags: ['reports'],
    params: MultiqcReportParams,
    body: MultiqcReportRequest,
    response: { 201: MultiqcReportResponse },
    errors: ['NOT_FOUND', 'CONFLICT'],
  });
}

export const buildProjectMultiqc = multiqcEndpoint('projects');
export const buildLaneMultiqc = multiqcEndpoint('lanes');

export const getExecutionQc = op({
  method: 'GET',
  path: '/api/executions/:id/qc',
  operationId: 'getExecutionQc',
  summary: "QC at a glance for an execution's samples",
  description:
    "One row per sample from this execution's QC results (qc_json outputs) that you may read: reads, " +
    'share of Q30 bases, GC, adapter percent and the pass/warn/fail verdict per module.',
  tags: ['reports'],
  params: MultiqcReportParams,
  response: { 200: QcSummaryResponse },
  errors: ['NOT_FOUND'],
});

export const getProjectQc = op({
  method: 'GET',
  path: '/api/projects/:id/qc',
  operationId: 'getProjectQc',
  summary: "QC at a glance for a project's samples",
  description:
    'One row per sample of the project that you can see, from its newest completed QC run whose results you ' +
    'may read; a sample without one has null figures.',
  tags: ['reports'],
  params: MultiqcReportParams,
  response: { 200: QcSummaryResponse },
  errors: ['NOT_FOUND'],
});

export const getSamplesQc = op({
  method: 'GET',
  path: '/api/samples/qc',
  operationId: 'getSamplesQc',
  summary: 'QC at a glance for a list of samples',
  description:
    'One row per listed sample that you can see (others are left out, as are ids of no sample), from its newest ' +
    'completed QC run whose results you may read; a sample without one has null figures. For the samples ' +
    "list's read counts of uploaded samples, which are not counted on arrival.",
  tags: ['reports'],
  query: SamplesQcQuery,
  response: { 200: QcSummaryResponse },
  errors: [],
});
