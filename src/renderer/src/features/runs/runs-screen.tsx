/** Sequencing runs found by the watchers, each with its timeline from detection to launch. */
import { useEffect, useState } from 'react';
import type { Run, RunState } from '../../../../shared/desktop-api/contract';
import { useAppStore } from '../../store';
import { formatHash } from '../../store/route';
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { formatTime } from '../../ui/format';
import { RunReportSummary } from '../../ui/run-report-summary';
import { ScreenHeader } from '../../ui/section';
import { asksForMetadata, RunMetadataPrompt } from './run-metadata-prompt';
import { RunSamples } from './run-samples';

/** States in which a run waits for its instrument; "Upload now" does not wait. */
const WAITING = new Set<RunState>(['detected', 'copying', 'stale']);

const STEPS: Array<{ state: RunState; label: string }> = [
  { state: 'detected', label: 'Detected' },
  { state: 'sequencing', label: 'Sequencing' },
  { state: 'copying', label: 'Copying' },
  { state: 'ready', label: 'Ready' },
  { state: 'uploading', label: 'Uploading' },
  { state: 'verified', label: 'Verified' },
  { state: 'registered', label: 'Registered' },
  { state: 'launched', label: 'Launched' },
];

function Timeline({ run, openExecution }: { run: Run; openExecution(id: number): void }) {
  const reached = new Map(run.timeline.map((t) => [t.state, t]));
  const currentIndex = STEPS.findIndex((s) => s.state === run.state);
  return (
    <ol className="timeline" aria-label={`Timeline of ${run.name}`}>
      {STEPS.map((s, i) => {
        const t = reached.get(s.state);
        const done = t !== undefined || (currentIndex >= 0 && i <= currentIndex);
        return (
          <li
            key={s.state}
            className={`step${done ? ' step-done' : ''}${s.state === run.state ? ' step-current' : ''}`}
            aria-current={s.state === run.state ? 'step' : undefined}
          >
            <span>{s.label}</span>
            {t && <span className="muted step-time">{formatTime(t.at)}</span>}
            {s.state === 'launched' && run.execution_id !== null && (
              <a
                href={formatHash('executions', { id: run.execution_id })}
                data-testid="run-execution-link"
                onClick={(e) => {
                  e.preventDefault();
                  openExecution(run.execution_id!);
                }}
              >
                Execution {run.execution_id}
              </a>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** Renders the runs and follows their changes while shown. */
export function RunsScreen() {
  const { api } = useServices();
  const navigate = useAppStore((s) => s.navigate);
  // A deep link to one run (#/runs/7): that run is marked and scrolled into view.
  const linked = useAppStore((s) => (typeof s.params.id === 'number' ? s.params.id : null));
  const [runs, setRuns] = useState<Run[]>([]);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api.runs.list({}).then((l) => setRuns(l.runs), setError);
    return api.on('runs:changed', (r) =>
      setRuns((rs) => (rs.some((x) => x.id === r.id) ? rs.map((x) => (x.id === r.id ? r : x)) : [r, ...rs])),
    );
  }, [api]);
  const found = runs.some((r) => r.id === linked);
  useEffect(() => {
    if (linked === null || !found) return;
    const el = document.querySelector<HTMLElement>(`[data-testid="run-${linked}"] h3`);
    if (!el) return;
    el.setAttribute('tabindex', '-1');
    el.focus();
    el.scrollIntoView({ block: 'start' });
  }, [linked, found]);
  const act = (fn: () => Promise<unknown>) => {
    setError(null);
    fn().then(
      () => api.runs.list({}).then((l) => setRuns(l.runs)),
      (err: unknown) => setError(err),
    );
  };
  return (
    <section aria-labelledby="runs-title">
      <ScreenHeader title="Runs" id="runs-title" />
      <ErrorNotice error={error} />
      {runs.length === 0 && (
        <p className="muted">No run yet: watch an instrument's output folder on Watched folders.</p>
      )}
      {runs.map((r) => (
        <article
          key={r.id}
          className={`card${r.id === linked ? ' card-linked' : ''}`}
          data-testid={`run-${r.id}`}
          data-state={r.state}
          aria-label={`Run ${r.name}`}
        >
          <div className="screen-header">
            <h3>
              <a
                href={formatHash('runs', { id: r.id })}
                className="heading-link"
                onClick={(e) => {
                  e.preventDefault();
                  navigate('runs', { id: r.id });
                }}
              >
                {r.name}
              </a>
            </h3>
            <span className="muted">
              {r.kind} · {r.path}
            </span>
            <div className="screen-actions">
              {(r.state === 'ready' || (r.state === 'failed' && !asksForMetadata(r))) && (
                <button
                  type="button"
                  className="btn btn-primary"
                  aria-label={`Upload: ${r.name}`}
                  onClick={() => act(() => api.runs.upload({ id: r.id }))}
                >
                  Upload
                </button>
              )}
              {WAITING.has(r.state) && (
                // The run waits for a marker its instrument may never write: the technician
                // who knows the FASTQs are complete uploads it now (issue 16 item 4).
                <button
                  type="button"
                  className="btn"
                  aria-label={`Upload now: ${r.name}`}
                  onClick={() => act(() => api.runs.upload({ id: r.id }))}
                >
                  Upload now
                </button>
              )}
              {/* The run's name is the card's heading: the buttons say only what they do (at
                  1024 px a name in the button pushed it out of the card). */}
              <button
                type="button"
                className="btn"
                aria-label={`Dismiss: ${r.name}`}
                onClick={() => act(() => api.runs.dismiss({ id: r.id }))}
              >
                Dismiss
              </button>
            </div>
          </div>
          <Timeline run={r} openExecution={(id) => navigate('executions', { id })} />
          <RunSamples run={r} />
          {r.timeline.at(-1)?.note && r.timeline.at(-1)?.note !== r.error && (
            <p className="muted" data-testid="run-note" id={`run-note-${r.id}`}>
              {r.timeline.at(-1)?.note}
            </p>
          )}
          {r.error && (
            <p className="notice notice-bad" role="alert">
              {r.error}
            </p>
          )}
          <RunMetadataPrompt run={r} act={act} />
          <RunReportSummary report={r.proposal?.report} name={r.name} />
        </article>
      ))}
    </section>
  );
}
