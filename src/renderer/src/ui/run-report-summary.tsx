/**
 * What the instrument wrote about a run, shown with the run and its proposal: the Undetermined
 * reads kept with the run (their share of all reads), the demultiplexing statistics per sample
 * and lane, the top unknown barcodes, the adapters passed to trimming and Element's manifest.
 */
import type { RunReport } from '../../../shared/desktop-api/contract';
import { formatBytes } from './format';
import './run-report.css';

const percent = (f: number) => `${(f * 100).toFixed(1)}%`;

/** Renders the report; nothing when there is none. */
export function RunReportSummary({ report, name }: { report: RunReport | null | undefined; name: string }) {
  if (!report) return null;
  const total = report.demux_stats.reduce((s, r) => s + r.reads, 0);
  return (
    <details className="run-report" data-testid="run-report" open>
      <summary>What the instrument reported for {name}</summary>
      {report.undetermined && (
        <p data-testid="run-undetermined">
          Undetermined:{' '}
          <strong>
            {report.undetermined.fraction !== null ? percent(report.undetermined.fraction) : 'share unknown'}
          </strong>{' '}
          of the run&apos;s reads
          {report.undetermined.reads !== null
            ? ` (${report.undetermined.reads.toLocaleString('en-US')} reads)`
            : ''} in {report.undetermined.files.length} file{report.undetermined.files.length === 1 ? '' : 's'} (
          {formatBytes(report.undetermined.bytes)}), kept with the run and not uploaded as a sample.
        </p>
      )}
      {report.adapters && (
        <p data-testid="run-adapters">
          Adapters for trimming: read 1 <code>{report.adapters.read1 ?? 'none'}</code>, read 2{' '}
          <code>{report.adapters.read2 ?? 'as read 1'}</code>
        </p>
      )}
      {report.demux_stats.length > 0 && (
        <div className="table-scroll">
          <table className="grid" data-testid="run-demux-stats">
            <caption>Demultiplexing statistics</caption>
            <thead>
              <tr>
                <th scope="col">Lane</th>
                <th scope="col">Sample</th>
                <th scope="col">Index</th>
                <th scope="col">Reads</th>
                <th scope="col">Share</th>
              </tr>
            </thead>
            <tbody>
              {report.demux_stats.map((r, i) => (
                <tr key={i}>
                  <td>{r.lane ?? '—'}</td>
                  <td>{r.sample}</td>
                  <td>{r.index ?? '—'}</td>
                  <td>{r.reads.toLocaleString('en-US')}</td>
                  <td>{total ? percent(r.reads / total) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {report.top_unknown.length > 0 && (
        <div className="table-scroll">
          <table className="grid" data-testid="run-top-unknown">
            <caption>Top unknown barcodes</caption>
            <thead>
              <tr>
                <th scope="col">Lane</th>
                <th scope="col">Index</th>
                <th scope="col">Reads</th>
              </tr>
            </thead>
            <tbody>
              {report.top_unknown.map((r, i) => (
                <tr key={i}>
                  <td>{r.lane ?? '—'}</td>
                  <td>
                    <code>{r.index}</code>
                  </td>
                  <td>{r.reads.toLocaleString('en-US')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {report.manifest && report.manifest.length > 0 && (
        <p data-testid="run-manifest">
          Run manifest:{' '}
          {report.manifest
            .map(
              (m) =>
                `${m.name} (${[m.index1, m.index2].filter(Boolean).join('+') || 'no index'}, lanes ${m.lanes.join('+') || 'all'})`,
            )
            .join('; ')}
        </p>
      )}
      {report.sources.length > 0 && <p className="muted">From {report.sources.join(', ')}</p>}
    </details>
  );
}
