/**
 * QC at a glance (issue 20 item 4): one row per sample with its reads, % Q30, GC, adapter
 * content and FastQC's verdict per module, from the `qc_json` outputs of the QC engine
 * (engines/qc/qc-result.ts), for one execution (a project's: reports/project-qc.ts). Only
 * outputs the caller may read count (the derived-data rule).
 */
import { readFileSync } from 'node:fs';
import type { QcSampleRow, QcStatus } from '../../shared/service-api/reports';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { dataFilePath } from '../data/data.commands';
import { listOutputs, sampleNamesByIds } from './executions.store';
import { canReadData } from '../policy/derived-data';

/** The parts of a QC result this summary reads (qc-result.ts's QcResult). */
export interface QcFileResult {
  sample?: string;
  file?: string;
  summary?: { total_reads?: number; total_bases?: number; q30_bases?: number; gc_bases?: number; n_bases?: number };
  adapter_content?: { totals?: number[] };
  flags?: Array<{ module: string; title: string; status: QcStatus }>;
}

const RANK: Record<QcStatus, number> = { pass: 0, warn: 1, fail: 2 };
const worse = (a: QcStatus, b: QcStatus): QcStatus => (RANK[b] > RANK[a] ? b : a);

/** Folds one sample's file results into its row (pure; exported for the unit test). */
export function summariseSample(
  sample: { id: number | null; name: string },
  executionId: number | null,
  results: QcFileResult[],
): QcSampleRow {
  let reads: number | null = null;
  let bases = 0;
  let q30 = 0;
  let gc = 0;
  let called = 0;
  let adapter: number | null = null;
  const modules = new Map<string, { module: string; title: string; status: QcStatus }>();
  for (const r of results) {
    const s = r.summary ?? {};
    if (typeof s.total_reads === 'number') reads = Math.max(reads ?? 0, s.total_reads);
    bases += s.total_bases ?? 0;
    q30 += s.q30_bases ?? 0;
    gc += s.gc_bases ?? 0;
    called += (s.total_bases ?? 0) - (s.n_bases ?? 0);
    for (const t of r.adapter_content?.totals ?? []) adapter = Math.max(adapter ?? 0, t);
    for (const f of r.flags ?? []) {
      const seen = modules.get(f.module);
      // The row's fields only: a result's flags also carry the figure behind them (`detail`).
      const flag = { module: f.module, title: f.title, status: f.status };
      modules.set(f.module, seen ? { ...seen, status: worse(seen.status, f.status) } : flag);
    }
  }
  const list = [...modules.values()];
  return {
    sample_id: sample.id,
    sample: sample.name,
    execution_id: executionId,
    files: results.length,
    reads,
    q30_rate: bases > 0 ? q30 / bases : null,
    gc_content: called > 0 ? gc / called : null,
    adapter_percent: results.length ? (adapter ?? 0) : null,
    modules: list,
    verdict: results.length === 0 ? null : list.reduce<QcStatus>((w, m) => worse(w, m.status), 'pass'),
  };
}

/** A QC result file's JSON, or null when it cannot be read. */
export function readQcResult(ctx: ServiceContext, dataId: number): QcFileResult | null {
  try {
    return JSON.parse(readFileSync(dataFilePath(ctx, dataId), 'utf8')) as QcFileResult;
  } catch {
    return null; // a result that cannot be read is left out rather than failing the page
  }
}

/**
 * The QC rows of one execution's `qc_json` outputs the caller may read, by sample; `null` for
 * the service itself (the notice to the execution's owner, who reads all of them).
 */
export function executionQc(ctx: ServiceContext, user: AuthUser | null, executionId: number): QcSampleRow[] {
  const outputs = listOutputs(ctx.db, executionId).filter(
    (o) => o.data_type === 'qc_json' && (user === null || canReadData(ctx.db, o.id, user)),
  );
  const bySample = new Map<string, { id: number | null; results: QcFileResult[] }>();
  const names = sampleNamesByIds(ctx.db, [
    ...new Set(outputs.flatMap((o) => (o.sample_id === null ? [] : [o.sample_id]))),
  ]);
  for (const o of outputs) {
    const result = readQcResult(ctx, o.id);
    if (!result) continue;
    const name = (o.sample_id !== null ? names.get(o.sample_id) : undefined) ?? result.sample ?? o.filename;
    const entry = bySample.get(name) ?? { id: o.sample_id, results: [] };
    entry.results.push(result);
    bySample.set(name, entry);
  }
  return [...bySample].map(([name, e]) => summariseSample({ id: e.id, name }, executionId, e.results));
}
