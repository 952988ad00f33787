/**
 * Submits the lane: the sheet as .xlsx plus the multiplexed FASTQ, to
 * `POST /api/upload/multiplexed`. Warnings (409 ANNOTATION_WARNINGS) open a dialog that lists
 * them and offers to submit again with ignore_warnings; errors (INVALID_ANNOTATION) go back
 * onto the sheet. Then the lane is followed through demultiplexing to its samples.
 */
import { useEffect, useRef, useState } from 'react';
import type { Issue } from '../../../../shared/annotation';
import { useAppStore } from '../../store';
import { ServiceRequestError } from '../../service-client/service-error';
import { useServices } from '../../service-client/services-context';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorNotice } from '../../ui/error-notice';

interface Lane {
  id: number;
  name: string;
  status: string;
  error?: string | null;
  samples?: Array<{ name: string; barcode?: string; sample_id: number | null; reads: number | null }>;
  total_reads?: number | null;
  undetermined_reads?: number | null;
  warnings?: Issue[];
}

export interface LaneSubmitProps {
  fastq: File | null;
  read2: File | null;
  hasErrors: boolean;
  buildWorkbook(): Blob;
  onServiceIssues(issues: Issue[]): void;
}

/** Renders the submit form and, after submission, the lane's progress and samples. */
export function LaneSubmit({ fastq, read2, hasErrors, buildWorkbook, onServiceIssues }: LaneSubmitProps) {
  const { client } = useServices();
  const navigate = useAppStore((s) => s.navigate);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [warnings, setWarnings] = useState<Issue[] | null>(null);
  const [lane, setLane] = useState<Lane | null>(null);

  const submit = async (ignoreWarnings: boolean) => {
    if (!fastq) return;
    setBusy(true);
    setError(null);
    setWarnings(null);
    try {
      const form = new FormData();
      form.set('name', name);
      if (ignoreWarnings) form.set('ignore_warnings', 'true');
      form.set('annotation', buildWorkbook(), 'annotation.xlsx');
      form.set('file', fastq, fastq.name);
      if (read2) form.set('file2', read2, read2.name);
      setLane(await client.request<Lane>('POST', '/api/upload/multiplexed', { form }));
      useAppStore.getState().markSubmitted();
    } catch (err) {
      if (err instanceof ServiceRequestError && err.code === 'ANNOTATION_WARNINGS')
        setWarnings(err.body.warnings as Issue[]);
      else {
        setError(err);
        if (err instanceof ServiceRequestError && Array.isArray(err.body.rows))
          onServiceIssues(err.body.rows as Issue[]);
      }
    } finally {
      setBusy(false);
    }
  };

  // The result (or the refusal) is brought into view and focus below a tall sheet (issue 16 item 7).
  const card = useRef<HTMLElement>(null);
  const shown = lane ? `lane:${lane.status}` : error ? 'error' : '';
  useEffect(() => {
    const el = card.current?.querySelector<HTMLElement>('[data-testid="lane-status"], [data-testid="error-notice"]');
    if (!el) return;
    el.setAttribute('tabindex', '-1');
    el.scrollIntoView({ block: 'nearest' });
    el.focus({ preventScroll: true });
  }, [shown]);

  // Follow demultiplexing until the lane is complete or failed.
  const laneId = lane?.id;
  const laneDone = lane?.status === 'complete' || lane?.status === 'failed';
  useEffect(() => {
    if (laneId === undefined || laneDone) return;
    const t = setInterval(() => {
      client.get<Lane>(`/api/lanes/${laneId}`).then(setLane, setError);
    }, 1500);
    return () => clearInterval(t);
  }, [client, laneId, laneDone]);

  const reasons: string[] = [];
  if (!fastq) reasons.push('Choose the multiplexed FASTQ above.');
  if (!name.trim()) reasons.push('Name the lane.');
  if (hasErrors) reasons.push('Fix the errors marked on the sheet.');
  return (
    <section ref={card} className="card" aria-labelledby="lane-submit-title" data-testid="lane-submit">
      <h3 id="lane-submit-title">Submit the lane</h3>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(false);
        }}
      >
        <label className="field">
          <span>Lane name</span>
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={busy || reasons.length > 0}
          aria-describedby="lane-reasons"
        >
          {busy ? 'Uploading…' : 'Upload and demultiplex'}
        </button>
        <ul id="lane-reasons" className="launch-reasons">
          {reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      </form>
      <ErrorNotice error={error} />
      {lane && (
        <div data-testid="lane-status" data-status={lane.status}>
          <p>
            Lane <strong>{lane.name}</strong>: {lane.status}
            {lane.status === 'demultiplexing' && ' (splitting reads by barcode…)'}
          </p>
          {lane.error && (
            <p className="notice notice-bad" role="alert">
              {lane.error}
            </p>
          )}
          {lane.status === 'complete' && (
            <>
              <p>
                {lane.total_reads?.toLocaleString() ?? '—'} reads, {lane.undetermined_reads?.toLocaleString() ?? '—'}{' '}
                undetermined
              </p>
              <ul className="plain-list" data-testid="lane-samples">
                {(lane.samples ?? []).map((s) => (
                  <li key={s.name}>
                    {s.name} ({s.barcode}): {s.reads?.toLocaleString() ?? '—'} reads
                    {s.sample_id === null && <span className="field-message"> no sample created</span>}
                  </li>
                ))}
              </ul>
              <button type="button" className="btn" onClick={() => navigate('samples')}>
                Open the samples
              </button>
            </>
          )}
        </div>
      )}
      <ConfirmDialog
        open={warnings !== null}
        title="The sheet has warnings"
        cancelLabel="Back to the sheet"
        confirmLabel="Submit anyway (ignore warnings)"
        busy={busy}
        onCancel={() => setWarnings(null)}
        onConfirm={() => void submit(true)}
      >
        <ul data-testid="lane-warnings">
          {(warnings ?? []).map((w, i) => (
            <li key={i}>
              Row {w.row}, {w.column}: {w.message}
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </section>
  );
}
