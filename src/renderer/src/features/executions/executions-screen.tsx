/**
 * Executions: a list with status and progress, filtered by status and pipeline, refreshed every
 * 3 s while any shown execution is queued or running (10 s otherwise); one opens its dashboard.
 */
import { useEffect, useRef, useState } from 'react';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import type { ExecutionStatus } from '../../../../shared/service-api/executions';
import { ErrorNotice } from '../../ui/error-notice';
import { formatDuration, formatTime } from '../../ui/format';
import { Pager } from '../../ui/pager';
import { Loading, ScreenHeader } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { ExecutionDashboard } from './execution-dashboard';
import { getExecutions, getPipelines } from '../../../../shared/service-api/endpoints';

const PER_PAGE = 25;
const STATUSES = [
  'queued',
  'running',
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly ExecutionStatus[];

/** Renders the list, or the dashboard when the navigation names an execution. */
export function ExecutionsScreen() {
  const { client } = useServices();
  const params = useAppStore((s) => s.params);
  const navigate = useAppStore((s) => s.navigate);
  const [status, setStatus] = useState('');
  const [pipeline, setPipeline] = useState('');
  const [page, setPage] = useState(1);
  const query = { page, per_page: PER_PAGE, status: STATUSES.find((s) => s === status), pipeline };
  const list = useQuery(() => client.call(getExecutions, { query }), JSON.stringify(query));
  const pipelines = useQuery(() => client.call(getPipelines), 'pipelines');
  const running = list.data?.items.some((e) => e.status === 'running' || e.status === 'queued');
  const { reload } = list;
  // Executions start from other screens and other users: refresh often while any runs.
  useEffect(() => {
    const t = setInterval(reload, running ? 3000 : 10_000);
    return () => clearInterval(t);
  }, [running, reload]);

  // Back from a dashboard, the list shows what it loaded when the dashboard opened: load it anew.
  const showing = typeof params.id === 'number' ? 'dashboard' : 'list';
  const shown = useRef(showing);
  useEffect(() => {
    if (shown.current !== showing && showing === 'list') reload();
    shown.current = showing;
  }, [showing, reload]);

  if (typeof params.id === 'number') return <ExecutionDashboard id={params.id} onBack={() => navigate('executions')} />;
  return (
    <section aria-labelledby="executions-title">
      <ScreenHeader title="Executions" id="executions-title">
        <button type="button" className="btn" onClick={reload}>
          Refresh
        </button>
      </ScreenHeader>
      <div className="toolbar">
        <label className="field">
          <span>Status</span>
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(1);
            }}
          >
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Pipeline</span>
          <select
            value={pipeline}
            onChange={(e) => {
              setPipeline(e.target.value);
              setPage(1);
            }}
          >
            <option value="">Any pipeline</option>
            {(pipelines.data ?? []).map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.loading && !list.data && <Loading what="executions" />}
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.data && (
        <>
          <table className="grid" data-testid="executions-table">
            <thead>
              <tr>
                <th scope="col">Execution</th>
                <th scope="col">Pipeline</th>
                <th scope="col">Status</th>
                <th scope="col">Progress</th>
                <th scope="col">Owner</th>
                <th scope="col">Duration</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((e) => (
                <tr key={e.id} data-testid={`execution-row-${e.id}`}>
                  <td>
                    <button type="button" className="link-button" onClick={() => navigate('executions', { id: e.id })}>
                      {e.name}
                    </button>
                    {e.rerun_of ? <div className="muted">re-run of #{e.rerun_of}</div> : null}
                  </td>
                  <td>
                    {e.pipeline?.name} {e.pipeline_version?.version}
                  </td>
                  <td>
                    <span className={`status-pill status-${e.status}`} data-testid="row-status">
                      {e.status}
                    </span>
                  </td>
                  <td>
                    <progress className="progress" max={100} value={e.progress} aria-label={`${e.name} progress`} />{' '}
                    <span data-testid="row-progress">{Math.round(e.progress)}%</span>
                  </td>
                  <td data-testid="row-owner">{e.group_owner ? `group ${e.group_owner}` : (e.owner ?? '—')}</td>
                  <td data-testid="row-duration">
                    {e.duration !== null && e.duration !== undefined
                      ? formatDuration(e.duration)
                      : e.status === 'running'
                        ? 'running'
                        : '—'}
                  </td>
                  <td>{formatTime(e.created)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.data.items.length === 0 && (
            <p className="muted">
              {status || pipeline
                ? 'No execution matches these filters.'
                : 'No executions yet: launch one from Pipelines.'}
            </p>
          )}
          <Pager page={page} perPage={PER_PAGE} count={list.data.count} onPage={setPage} />
        </>
      )}
    </section>
  );
}
