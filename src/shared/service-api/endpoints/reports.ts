/** The endpoints of service/reports/reports.routes.ts: MultiQC over a project's or a lane's samples. */
import { op } from '../endpoint';
import { MultiqcReportParams, MultiqcReportRequest, MultiqcReportResponse } from '../reports';

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
