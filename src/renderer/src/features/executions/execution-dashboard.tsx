/**
 * One execution, live: status and overall progress, the process table, the log, outputs with
 * downloads, cancel with confirmation, re-run and resume, and chaining a next pipeline once it
 * completed.
 */
import { useState } from 'react';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import { NotOffered, useServiceOffers } from '../../ui/service-offers';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DownloadButton } from '../../ui/download-button';
import { ErrorNotice } from '../../ui/error-notice';
import { formatBytes, formatDuration, formatTime, plural } from '../../ui/format';
import { formatHash } from '../../store/route';
import { sampleProgress } from './execution-summary';
import { Loading } from '../../ui/section';
import { isReport, ReportFrame } from '../../ui/report-frame';
import { orderOutputs } from './output-order';
import { QcTable } from '../../ui/qc-table';
import { SharePanel } from '../../ui/share-panel';
import { LogView } from './log-view';
import { ProcessTable } from './process-table';
import { RunAgainActions } from './run-again-actions';
import { useExecutionFeed } from './use-execution-feed';
import { getPipelines, postExecutionsByIdCancel } from '../../../../shared/service-api/endpoints';
import { chainsFrom } from '../../../../shared/pipelines/chainable';
import { useQuery } from '../../ui/use-query';

const MODE_TEXT = {
  connecting: 'Connecting…',
  live: 'Live',
  polling: 'Live connection lost: refreshing every 2 s',
  finished: 'Finished',
  missing: 'Not followed',
} as const;

/** A service that pushes no updates (a Flow server) is read every 2 s from the start. */
const POLLING_ONLY = 'Refreshing every 2 s';

/** The outputs table's line while it is empty: only a live execution may still add files. */
function noOutputsText(status: string): string {
  if (status === 'queued' || status === 'running') return 'Outputs appear as processes finish.';
  if (status === 'cancelled') return 'No files: it was cancelled before any process finished.';
  if (status === 'failed') return 'No files: it failed before any process finished (see the log).';
  return 'This execution produced no files.';
}

/** Renders the dashboard of execution `id`. */
export function ExecutionDashboard({ id, onBack }: { id: number; onBack(): void }) {
  const { client } = useServices();
  // Offered only where some pipeline takes this one's outputs (QC's, Variant Calling's: none).
  const pipelines = useQuery(() => client.call(getPipelines), 'pipelines');
  const offers = useServiceOffers();
  const [generation, setGeneration] = useState(0);
  const { execution: e, mode, error, logs, version } = useExecutionFeed(id, generation);
  const navigate = useAppStore((s) => s.navigate);
  const pushToast = useAppStore((s) => s.pushToast);
  const [confirm, setConfirm] = useState(false);
  const [cancelError, setCancelError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<{ id: number; filename: string } | null>(null);
  const cancellable = offers.cancel && e && (e.status === 'queued' || e.status === 'running');
  const bySample = e ? sampleProgress(e) : null;
  const from = e?.pipeline?.name;
  const chainable = from !== undefined && (pipelines.data ?? []).some((p) => chainsFrom(p.upstream_pipelines, from));

  const cancel = async () => {
    setBusy(true);
    setCancelError(null);
    try {
      await client.call(postExecutionsByIdCancel, { params: { id } });
      pushToast({ tone: 'ok', message: `Cancelling ${e?.name ?? id}` });
    } catch (err) {
      setCancelError(err);
    } finally {
      setBusy(false);
      setConfirm(false);
    }
  };
  return (
    <section aria-labelledby="execution-title" data-testid="execution-dashboard">
      <div className="screen-header">
        <h2 id="execution-title">{e ? e.name : `Execution ${id}`}</h2>
        {/* Not found: the error below says so; "connection lost, refreshing" would mislead. */}
        <span className="badge" data-testid="feed-mode" data-mode={mode} role="status" hidden={mode === 'missing'}>
          {mode === 'polling' && !client.live() ? POLLING_ONLY : MODE_TEXT[mode]}
        </span>
        <div className="screen-actions">
          <button type="button" className="btn" onClick={onBack}>
            All executions
          </button>
          {e?.status === 'completed' && chainable && (
            <button type="button" className="btn" onClick={() => navigate('pipelines', { upstream: id })}>
              Chain a next pipeline
            </button>
          )}
          {cancellable && (
            <button type="button" className="btn btn-danger" onClick={() => setConfirm(true)} disabled={busy}>
              Cancel execution
            </button>
          )}
        </div>
      </div>
      <ErrorNotice error={error} />
      <ErrorNotice error={cancelError} />
      {!e && !error && <Loading what="the execution" />}
      {e && (
        <>
          <div className="card">
            <p>
              <span className={`status-pill status-${e.status}`} data-testid="execution-status">
                {e.status}
              </span>{' '}
              <progress
                className="progress"
                max={100}
                value={bySample?.percent ?? e.progress}
                aria-label="Overall progress"
              />{' '}
              <span data-testid="execution-progress">
                {bySample
                  ? `${bySample.done} of ${plural(bySample.total, 'sample')} done${bySample.failed ? `, ${bySample.failed} failed` : ''}`
                  : `${Math.round(e.progress)}%`}
              </span>
              {e.test_mode && (
                <span className="badge badge-warn" data-testid="test-mode">
                  Test mode: a quick run on part of the data
                </span>
              )}
            </p>
            <dl className="facts">
              <dt>Pipeline</dt>
              <dd>
                {e.pipeline?.name} {e.pipeline_version?.version}
              </dd>
              {typeof e.upstream_execution === 'number' && (
                <>
                  <dt>Chained from</dt>
                  <dd data-testid="upstream-execution">
                    <a
                      href={formatHash('executions', { id: e.upstream_execution })}
                      onClick={(ev) => {
                        ev.preventDefault();
                        navigate('executions', { id: e.upstream_execution! });
                      }}
                    >
                      execution #{e.upstream_execution}
                    </a>
                  </dd>
                </>
              )}
              <dt>Started</dt>
              <dd>{formatTime(e.started)}</dd>
              <dt>Duration</dt>
              <dd>{formatDuration(e.duration)}</dd>
              <dt>Samples</dt>
              <dd>{(e.samples ?? []).map((s) => (typeof s === 'object' ? (s.name ?? s.id) : s)).join(', ') || '—'}</dd>
            </dl>
            {e.error && (
              <p className="notice notice-bad" role="alert">
                {e.error}
              </p>
            )}
          </div>
          <QcTable segment="executions" id={id} version={`${e.status}:${(e.outputs ?? []).length}`} />
          <RunAgainActions execution={e} onResumed={() => setGeneration((g) => g + 1)} />
          {!offers.cancel && (e.status === 'queued' || e.status === 'running') && (
            <NotOffered what="Cancelling an execution from this app" />
          )}
          <ProcessTable processes={e.process_executions ?? []} />
          <LogView logs={logs} version={version} />
          <section className="card" aria-labelledby="outputs-title">
            <h3 id="outputs-title">Outputs</h3>
            <table className="grid" data-testid="outputs">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Type</th>
                  <th scope="col">Size</th>
                  <th scope="col">Open</th>
                </tr>
              </thead>
              <tbody>
                {orderOutputs(e.outputs ?? []).map((o) => (
                  <tr key={o.id}>
                    <td>{o.path ?? o.filename}</td>
                    <td>{o.data_type}</td>
                    <td>{formatBytes(o.size)}</td>
                    <td className="row-actions">
                      {isReport(o) && offers.reportView && (
                        <button
                          type="button"
                          className="btn btn-small btn-primary"
                          aria-pressed={report?.id === o.id}
                          onClick={() => setReport({ id: o.id, filename: o.filename })}
                        >
                          View {o.filename}
                        </button>
                      )}
                      <DownloadButton dataId={o.id} filename={o.filename} />
                    </td>
                  </tr>
                ))}
                {(e.outputs ?? []).length === 0 && (
                  <tr>
                    <td colSpan={4} className="muted">
                      {noOutputsText(e.status)}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </section>
          {report && <ReportFrame dataId={report.id} filename={report.filename} onClose={() => setReport(null)} />}
          <SharePanel segment="executions" id={id} canShare={e.can_share === true} />
        </>
      )}
      <ConfirmDialog
        open={confirm}
        title={`Cancel ${e?.name ?? 'the execution'}?`}
        cancelLabel="Keep it running"
        confirmLabel="Stop the execution"
        tone="danger"
        busy={busy}
        onConfirm={() => void cancel()}
        onCancel={() => setConfirm(false)}
      >
        Running processes are stopped; finished outputs are kept. This cannot be undone.
      </ConfirmDialog>
    </section>
  );
}
