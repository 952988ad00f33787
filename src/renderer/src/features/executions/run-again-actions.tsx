/**
 * Re-run and Resume on the execution dashboard. The service says for each whether the caller
 * may, and why not (`rerun` / `resume` on the execution); a disabled button shows that reason
 * beside it, tied to the button for screen readers.
 */
import { useState } from 'react';
import { useServices } from '../../service-client/services-context';
import type { Execution } from '../../service-client/types';
import { useAppStore } from '../../store';
import { ErrorNotice } from '../../ui/error-notice';
import { postExecutionsByIdRerun, postExecutionsByIdResume } from '../../../../shared/service-api/endpoints';

interface Props {
  execution: Execution;
  /** The execution was resumed: follow it again from its new start. */
  onResumed(): void;
}

/** The two buttons with their reasons, and the error of the last attempt. */
export function RunAgainActions({ execution: e, onResumed }: Props) {
  const { client } = useServices();
  const navigate = useAppStore((s) => s.navigate);
  const pushToast = useAppStore((s) => s.pushToast);
  const [busy, setBusy] = useState<'rerun' | 'resume' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const rerun = e.rerun ?? { allowed: false, reason: 'This service does not offer re-runs' };
  const resume = e.resume ?? { allowed: false, reason: 'This service does not offer resume' };

  const act = async (what: 'rerun' | 'resume') => {
    setBusy(what);
    setError(null);
    try {
      const next =
        what === 'rerun'
          ? await client.call(postExecutionsByIdRerun, { params: { id: e.id }, body: {} })
          : await client.call(postExecutionsByIdResume, { params: { id: e.id } });
      if (what === 'rerun') {
        pushToast({ tone: 'ok', message: `Re-running ${e.name} as execution ${next.id}` });
        navigate('executions', { id: next.id });
      } else {
        pushToast({ tone: 'ok', message: `Resuming ${e.name} where it stopped` });
        onResumed();
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="card run-again" data-testid="run-again">
      <div className="run-again-row">
        <button
          type="button"
          className="btn"
          data-testid="rerun-button"
          disabled={!rerun.allowed || busy !== null}
          aria-describedby={rerun.reason ? 'rerun-reason' : undefined}
          onClick={() =>
            // The launch form, filled in from this execution: change what is needed, or send as is.
            e.pipeline && e.pipeline_version
              ? navigate('pipelines', { id: e.pipeline.id, version: e.pipeline_version.id, rerun: e.id })
              : void act('rerun')
          }
        >
          {busy === 'rerun' ? 'Starting…' : 'Re-run'}
        </button>
        <span id="rerun-reason" className="muted" data-testid="rerun-reason">
          {rerun.reason ??
            'Opens the launch form with the same samples, parameters and resources, to change or launch as they are.'}
        </span>
      </div>
      <div className="run-again-row">
        <button
          type="button"
          className="btn"
          data-testid="resume-button"
          disabled={!resume.allowed || busy !== null}
          aria-describedby={resume.reason ? 'resume-reason' : undefined}
          onClick={() => void act('resume')}
        >
          {busy === 'resume' ? 'Resuming…' : 'Resume'}
        </button>
        <span id="resume-reason" className="muted" data-testid="resume-reason">
          {resume.reason ?? 'Continues where it stopped: finished steps are not run again.'}
        </span>
      </div>
      {e.rerun_of ? (
        <p className="muted">
          A re-run of{' '}
          <button type="button" className="btn btn-small" onClick={() => navigate('executions', { id: e.rerun_of! })}>
            execution {e.rerun_of}
          </button>
          .
        </p>
      ) : null}
      {e.resumes ? <p className="muted">Resumed {e.resumes === 1 ? 'once' : `${e.resumes} times`}.</p> : null}
      <ErrorNotice error={error} />
    </div>
  );
}
