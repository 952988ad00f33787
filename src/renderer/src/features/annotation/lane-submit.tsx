/**
 * The submit card of a lane: its name (and, in browser mode, the FASTQs' paths for the upload
 * queue), the reasons it cannot be submitted yet, and the dialogs
 * of the submission (use-lane-submission.ts): when the first reads would be mostly undetermined
 * (unknown barcodes, nearest samples, the cause that fits), before any sample is created; and
 * when the sheet has warnings, offering ignore_warnings. Then the lane's progress and result.
 */
import { useEffect, useRef, useState } from 'react';
import type { BarcodeDesign, Issue } from '../../../../shared/annotation';
import { useAppStore } from '../../store';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorNotice } from '../../ui/error-notice';
import type { DemuxSettings } from './demux-settings';
import { LaneResult } from './lane-result';
import { UndeterminedWarning } from './undetermined-warning';
import { knowsFilePaths, LARGE_LANE_BYTES } from './lane-queue';
import { useLaneSubmission } from './use-lane-submission';

export interface LaneSubmitProps {
  fastq: File | null;
  read2: File | null;
  settings: DemuxSettings;
  design: BarcodeDesign | null;
  /** Mismatches per segment as the sheet rules resolve them. */
  mismatches: readonly number[];
  hasErrors: boolean;
  /** The sheet as .xlsx (into the service's template when it has no workbook of its own). */
  buildWorkbook(): Promise<Blob>;
  onServiceIssues(issues: Issue[]): void;
}

/** Renders the submit form and, after submission, the lane's progress and samples. */
export function LaneSubmit({
  fastq,
  read2,
  settings,
  design,
  mismatches,
  hasErrors,
  buildWorkbook,
  onServiceIssues,
}: LaneSubmitProps) {
  const navigate = useAppStore((s) => s.navigate);
  const [name, setName] = useState('');
  // Browser mode: the FASTQs' paths, typed, send the lane through the upload queue.
  const [typedPaths, setTypedPaths] = useState({ read1: '', read2: '' });
  const { busy, error, warnings, lane, precheck, queued, read1Path, dismissWarnings, dismissPrecheck, ...submission } =
    useLaneSubmission({
      fastq,
      read2,
      settings,
      design,
      mismatches,
      buildWorkbook,
      onServiceIssues,
      typedPaths,
    });
  const tooLargeToPost = !read1Path && !!fastq && fastq.size > LARGE_LANE_BYTES;
  const submit = (ignoreWarnings: boolean, checked: boolean) => submission.submit(name, ignoreWarnings, checked);

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

  const reasons: string[] = [];
  if (!fastq && !read1Path) reasons.push('Choose the multiplexed FASTQ above.');
  if (tooLargeToPost)
    reasons.push(
      'The FASTQ is too large to post from the page: type its path, and it goes through the resumable upload queue.',
    );
  if (!name.trim()) reasons.push('Name the lane.');
  if (hasErrors) reasons.push('Fix the errors marked on the sheet.');
  return (
    <section ref={card} className="card" aria-labelledby="lane-submit-title" data-testid="lane-submit">
      <h3 id="lane-submit-title">Submit the lane</h3>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(false, false);
        }}
      >
        <label className="field">
          <span>Lane name</span>
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        {!knowsFilePaths && (
          <>
            <label className="field">
              <span>or the FASTQ&apos;s path on this computer</span>
              <input
                value={typedPaths.read1}
                data-testid="fastq-path"
                spellCheck={false}
                title="A typed path goes through the resumable upload queue (large files, restarts): a browser cannot tell a chosen file's path"
                onChange={(e) => setTypedPaths({ ...typedPaths, read1: e.target.value })}
              />
            </label>
            <label className="field">
              <span>Read 2&apos;s path (optional)</span>
              <input
                value={typedPaths.read2}
                data-testid="read2-path"
                spellCheck={false}
                onChange={(e) => setTypedPaths({ ...typedPaths, read2: e.target.value })}
              />
            </label>
          </>
        )}
        <button
          type="submit"
          className="btn btn-primary"
          disabled={busy || reasons.length > 0}
          aria-describedby="lane-reasons"
        >
          {busy ? 'Checking and uploading…' : 'Upload and demultiplex'}
        </button>
        <ul id="lane-reasons" className="launch-reasons">
          {reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      </form>
      <ErrorNotice error={error} />
      {queued?.phase === 'uploading' && !lane && (
        <p data-testid="lane-queued" role="status">
          Uploading through the upload queue
          {queued.progress && queued.progress.bytesTotal > 0
            ? `: ${Math.floor((100 * queued.progress.bytesSent) / queued.progress.bytesTotal)}%`
            : '…'}{' '}
          (it resumes after a restart; see Uploads). The lane is created when its reads are in.
        </p>
      )}
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
            <LaneResult
              lane={lane}
              onOpen={() => {
                // The lane's samples, ticked, and only they: an earlier selection would ride along.
                useAppStore
                  .getState()
                  .setSelectedSamples((lane.samples ?? []).flatMap((x) => (x.sample_id === null ? [] : [x.sample_id])));
                navigate('samples');
              }}
            />
          )}
        </div>
      )}
      <ConfirmDialog
        open={precheck !== null}
        title="Most reads would be undetermined"
        confirmLabel="Upload anyway"
        busy={busy}
        onCancel={dismissPrecheck}
        onConfirm={() => void submit(false, true)}
      >
        {precheck && (
          <UndeterminedWarning
            fraction={precheck.undeterminedFraction}
            unknown={precheck.unknown.map((u) => ({ ...u, count: u.reads }))}
            diagnosis={precheck.diagnosis}
            before
          />
        )}
        <p>
          Checked the first {precheck?.readsScanned.toLocaleString()} reads with the layout and mismatches above. Fix
          the layout or the sheet, or upload anyway.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={warnings !== null}
        title="The sheet has warnings"
        cancelLabel="Back to the sheet"
        confirmLabel="Submit anyway (ignore warnings)"
        busy={busy}
        onCancel={dismissWarnings}
        onConfirm={() => void submit(true, true)}
      >
        <ul data-testid="lane-warnings">
          {(warnings ?? []).map((w, i) => (
            <li key={i}>
              {w.column ? `Row ${w.row}, ${w.column}: ` : ''}
              {w.message}
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </section>
  );
}
