/** One upload job: file, state (or "waits for read 1"), bytes, speed, ETA, why it waits, and its actions. */
import { memo, useState } from 'react';
import type { UploadJob } from '../../../../shared/desktop-api/contract';
import { useServices } from '../../service-client/services-context';
import { useAppStore } from '../../store';
import { describeError } from '../../service-client/service-error';
import { formatBytes, formatDuration, formatRate } from '../../ui/format';
import { rateUnit } from './overall-progress';
import { useLocalService, waitingText } from './waiting-reason';

/**
 * Renders the row of job `id`, the `index`th of the table's rows; re-renders only when that job
 * or its place changes. `rowRef` lets the table measure the row (use-row-window.ts).
 */
export const UploadRow = memo(function UploadRow({
  id,
  index,
  rowRef,
}: {
  id: number;
  index: number;
  rowRef: (el: HTMLTableRowElement | null) => void;
}) {
  const job = useAppStore((s) => s.uploadJobs[id]) as UploadJob | undefined;
  const upsert = useAppStore((s) => s.upsertUploadJob);
  const unit = useAppStore((s) => rateUnit(s.uploadSettings));
  const { api } = useServices();
  const local = useLocalService();
  const [error, setError] = useState<string | null>(null);
  if (!job) return null;
  const act = (fn: (p: { id: number }) => Promise<UploadJob>) => {
    setError(null);
    fn({ id }).then(upsert, (err: unknown) => setError(describeError(err).message));
  };
  const active =
    job.state === 'uploading' || job.state === 'hashing' || job.state === 'queued' || job.state === 'waiting';
  const pct = job.bytes_total ? (job.bytes_sent / job.bytes_total) * 100 : 0;
  const settled = job.state === 'paused' || job.state === 'failed';
  const actions: Array<[string, (p: { id: number }) => Promise<UploadJob>]> = [];
  if (active && job.state !== 'waiting') actions.push(['Pause', api.uploads.pause]);
  if (job.state === 'paused') actions.push(['Resume', api.uploads.resume]);
  if (job.state === 'failed') actions.push(['Retry', api.uploads.retry]);
  if (active || settled) actions.push(['Cancel', api.uploads.cancel]);
  return (
    <tr ref={rowRef} data-testid={`upload-${job.id}`} data-state={job.state} aria-rowindex={index + 2}>
      <td>
        {job.filename}
        <div className="muted">{job.role}</div>
      </td>
      <td>
        {/* A Flow server needs read 1 first: its read 2 is queued for that, not for a free slot. */}
        <span className={`status-pill status-${job.state}`}>
          {job.waits_for_read1 ? 'waits for read 1' : job.state}
        </span>
        {job.deduplicated && <div className="muted">already on the service</div>}
        {job.waiting_reason && <div className="field-help">Waiting: {waitingText(job.waiting_reason, local)}</div>}
        {job.error && <div className="field-message">{job.error}</div>}
        {error && (
          <div className="field-message" role="alert">
            {error}
          </div>
        )}
      </td>
      <td>
        <progress className="progress" max={100} value={pct} aria-label={`${job.filename} progress`} />
        <div>
          {formatBytes(job.state === 'completed' ? job.bytes_total : job.bytes_sent)} of {formatBytes(job.bytes_total)}
        </div>
      </td>
      {/* Only a job moving bytes has a speed and an ETA; queued, paused and finished ones show a dash. */}
      <td data-testid="job-speed">
        {job.state !== 'uploading' ? '—' : job.speed_bps > 0 ? formatRate(job.speed_bps, unit) : 'measuring…'}
      </td>
      <td data-testid="job-eta">{job.state === 'uploading' ? formatDuration(job.eta_seconds) : '—'}</td>
      {/* The row names its file: the buttons say only what they do, their accessible names
          the file too (a screen reader's list of buttons has no rows). */}
      <td>
        {actions.map(([label, call]) => (
          <button
            key={label}
            type="button"
            className="btn btn-small"
            aria-label={`${label} ${job.filename}`}
            onClick={() => act(call)}
          >
            {label}
          </button>
        ))}
      </td>
    </tr>
  );
});
