/**
 * QC at a glance (issue 20 item 4): one row per sample with its reads, % Q30, GC, adapter
 * content and FastQC's verdict per module, from `GET /api/{executions|projects}/{id}/qc`. The
 * failing sample of a QC run shows here in red rather than only as a log line.
 */
import { getExecutionQc, getProjectQc } from '../../../shared/service-api/endpoints';
import type { QcSampleRow } from '../../../shared/service-api/reports';
import { NotOffered, useServiceOffers } from './service-offers';
import { useServices } from '../service-client/services-context';
import { ErrorNotice } from './error-notice';
import { useQuery } from './use-query';

const percent = (f: number | null, digits = 1) => (f === null ? '—' : `${(f * 100).toFixed(digits)}%`);
const PILL = { pass: 'status-completed', warn: 'status-warn', fail: 'status-failed' } as const;

function Checks({ row }: { row: QcSampleRow }) {
  const bad = row.modules.filter((m) => m.status !== 'pass');
  return (
    <>
      {row.verdict && (
        <span className={`status-pill ${PILL[row.verdict]}`} data-testid="qc-verdict">
          {row.verdict}
        </span>
      )}{' '}
      {bad.length > 0 ? (
        <span>
          {bad.map((m, i) => (
            <span key={m.module}>
              {i > 0 && ', '}
              {m.title} <span className={PILL[m.status]}>({m.status})</span>
            </span>
          ))}
        </span>
      ) : row.verdict ? (
        <span className="muted">all {row.modules.length} checks pass</span>
      ) : (
        <span className="muted">no QC run yet</span>
      )}
    </>
  );
}

/** The table for `segment`/`id`; `version` reloads it (an execution that gained outputs). */
function QcTableBody({
  segment,
  id,
  version = '',
}: {
  segment: 'executions' | 'projects';
  id: number;
  version?: string;
}) {
  const { client } = useServices();
  const q = useQuery(
    () => client.call(segment === 'executions' ? getExecutionQc : getProjectQc, { params: { id } }),
    `qc:${segment}:${id}:${version}`,
  );
  const rows = q.data?.samples ?? [];
  // An execution that is not a QC run has nothing to show: no empty table.
  if (segment === 'executions' && rows.length === 0 && !q.error) return null;
  return (
    <section className="card" aria-labelledby={`qc-title-${segment}`} data-testid="qc-table">
      <h3 id={`qc-title-${segment}`}>Quality control at a glance</h3>
      <ErrorNotice error={q.error} onRetry={q.reload} />
      {rows.length > 0 && (
        <div className="table-scroll">
          <table className="grid qc-grid">
            <thead>
              <tr>
                <th scope="col">Sample</th>
                <th scope="col">Reads</th>
                <th scope="col">% Q30</th>
                <th scope="col">GC</th>
                <th scope="col">Adapters</th>
                <th scope="col">Checks (FastQC&apos;s limits)</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.sample_id ?? r.sample}`} data-verdict={r.verdict ?? 'none'}>
                  <th scope="row">{r.sample}</th>
                  <td>{r.reads === null ? '—' : r.reads.toLocaleString('en-US')}</td>
                  <td className={r.q30_rate !== null && r.q30_rate < 0.8 ? 'status-failed' : undefined}>
                    {percent(r.q30_rate)}
                  </td>
                  <td>{percent(r.gc_content)}</td>
                  <td>{r.adapter_percent === null ? '—' : `${r.adapter_percent.toFixed(1)}%`}</td>
                  <td>
                    <Checks row={r} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The table for `segment`/`id`; a service without QC summaries says so on projects (an execution shows nothing). */
export function QcTable(props: { segment: 'executions' | 'projects'; id: number; version?: string }) {
  const offers = useServiceOffers();
  if (offers.qc) return <QcTableBody {...props} />;
  return props.segment === 'projects' ? <NotOffered what="QC at a glance" /> : null;
}
