/**
 * A project's QC at a glance: one row per sample the caller can see, from its newest completed
 * QC run whose results the caller may read (the derived-data rule); a sample without one has
 * no figures. The rows are folded as an execution's are (executions/qc-summary.ts).
 */
import type { QcSampleRow } from '../../shared/service-api/reports';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { readQcResult, summariseSample, type QcFileResult } from '../executions/qc-summary';
import { canReadData, canSeeSample } from '../policy/derived-data';
import { sampleOutputs, type ReportSampleRow } from './reports.store';

/** One row per sample the caller can see: its newest completed QC run's figures, or none yet. */
export function samplesQc(ctx: ServiceContext, user: AuthUser, samples: ReportSampleRow[]): QcSampleRow[] {
  const visible = samples.filter((s) => canSeeSample(ctx.db, s.id, user));
  const outputs = sampleOutputs(
    ctx.db,
    visible.map((s) => s.id),
    ['qc_json'],
  ).filter((o) => canReadData(ctx.db, o.id, user));
  // Rows come newest execution first: the first execution seen per sample is its newest.
  const newest = new Map<number, number>();
  for (const o of outputs)
    if (o.sample_id !== null && !newest.has(o.sample_id)) newest.set(o.sample_id, o.execution_id);
  return visible.map((s) => {
    const run = newest.get(s.id) ?? null;
    const results = outputs
      .filter((o) => o.sample_id === s.id && o.execution_id === run)
      .map((o) => readQcResult(ctx, o.id))
      .filter((r): r is QcFileResult => r !== null);
    return summariseSample({ id: s.id, name: s.name }, run, results);
  });
}
