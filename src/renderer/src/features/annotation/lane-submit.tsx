/**
 * Submits the lane: the sheet as .xlsx plus the multiplexed FASTQ (and index reads), with the
 * layout, mismatches and barcode read, to `POST /api/upload/multiplexed`. Before anything is
 * uploaded the first reads are checked with the same rule as the demultiplexer: when most of
 * them would be undetermined, a dialog says so loudly (unknown barcodes, nearest samples, the
 * cause that fits) before any sample is created. Warnings (409 ANNOTATION_WARNINGS) open a
 * dialog that offers ignore_warnings; errors (INVALID_ANNOTATION) go back onto the sheet. Then
 * the lane is followed through demultiplexing to its samples and its report.
 */
import { useEffect, useRef, useState } from 'react';
import type { BarcodeDesign, Issue } from '../../../../shared/annotation';
import { getLanesById, postUploadMultiplexed } from '../../../../shared/service-api/endpoints';
import type { Lane } from '../../../../shared/service-api/lanes';
import { useAppStore } from '../../store';
import { multipart, type FilePart } from '../../../../shared/service-client/multipart';
import { ServiceError } from '../../../../shared/service-client/service-error';
import { useServices } from '../../service-client/services-context';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorNotice } from '../../ui/error-notice';
import { MultiqcReportPanel } from '../../ui/multiqc-report-panel';
import { MOSTLY_UNDETERMINED, runBarcodeCheck, type BarcodeCheck } from './barcode-check';
import type { DemuxSettings } from './demux-settings';
import { UndeterminedWarning } from './undetermined-warning';

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
  const { client } = useServices();
  const navigate = useAppStore((s) => s.navigate);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [warnings, setWarnings] = useState<Issue[] | null>(null);
  const [lane, setLane] = useState<Lane | null>(null);
  const [precheck, setPrecheck] = useState<BarcodeCheck | null>(null);

  const submit = async (ignoreWarnings: boolean, checked: boolean) => {
    if (!fastq) return;
    setBusy(true);
    setError(null);
    setWarnings(null);
    try {
      if (!checked && design) {
        // Before any sample exists: would most reads be undetermined with these settings?
        const check = await runBarcodeCheck(
          { fastq, read2, index1: settings.index1, index2: settings.index2 },
          design,
          mismatches,
          settings.barcodeRead,
        );
        if (check.undeterminedFraction > MOSTLY_UNDETERMINED) {
          setPrecheck(check);
          return;
        }
      }
      setPrecheck(null);
      const part = (field: string, content: Blob, filename: string): FilePart<Blob> => ({
        field,
        filename,
        content,
        type: content.type || undefined,
      });
      const files = [part('annotation', await buildWorkbook(), 'annotation.xlsx'), part('file', fastq, fastq.name)];
      if (read2) files.push(part('file2', read2, read2.name));
      if (settings.index1) files.push(part('index1', settings.index1, settings.index1.name));
      if (settings.index2) files.push(part('index2', settings.index2, settings.index2.name));
      const fields = {
        name,
        ignore_warnings: ignoreWarnings ? 'true' : undefined,
        layout: settings.layout.trim() || undefined,
        mismatches: settings.mismatches.trim() || undefined,
        barcode_read: settings.barcodeRead === 2 && read2 ? '2' : undefined,
      };
      const form = multipart(fields, files);
      setLane(await client.call(postUploadMultiplexed, { form }));
      useAppStore.getState().markSubmitted();
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'ANNOTATION_WARNINGS') setWarnings(err.warnings ?? []);
      else {
        setError(err);
        if (err instanceof ServiceError && err.rows) onServiceIssues(err.rows);
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
      client.call(getLanesById, { params: { id: laneId } }).then(setLane, setError);
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
          void submit(false, false);
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
          {busy ? 'Checking and uploading…' : 'Upload and demultiplex'}
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
        onCancel={() => setPrecheck(null)}
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
        onCancel={() => setWarnings(null)}
        onConfirm={() => void submit(true, true)}
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

/** A finished lane: reads per sample, undetermined share, mismatches, unknown barcodes, hopping. */
function LaneResult({ lane, onOpen }: { lane: Lane; onOpen(): void }) {
  const r = lane.report ?? null;
  const pct = (n: number) => `${(100 * n).toFixed(2)}%`;
  return (
    <div data-testid="lane-result">
      {r && (
        <UndeterminedWarning
          fraction={r.undetermined_fraction}
          unknown={r.top_unknown}
          diagnosis={r.diagnosis}
          before={false}
        />
      )}
      <p data-testid="lane-totals">
        {lane.total_reads?.toLocaleString() ?? '—'} reads, {lane.undetermined_reads?.toLocaleString() ?? '—'}{' '}
        undetermined
        {r && ` (${pct(r.undetermined_fraction)})`}
        {r &&
          `; mismatches allowed ${r.segments.map((s, i) => `${r.segments.length > 1 ? `${s} ` : ''}${r.segment_mismatches[i]} (at most ${r.max_mismatches[i]})`).join(', ')}`}
        {r?.layout && `; layout ${r.layout}`}
      </p>
      {r?.hopping && (
        <p data-testid="lane-hopping">
          {r.segments[0] === 'i7' ? 'Index hopping' : "Unexpected 5'+3' pairs"}: {r.hopping.reads.toLocaleString()}{' '}
          reads ({pct(r.hopping.fraction)})
          {r.hopping.top[0] && `, most often ${r.hopping.top[0].barcode} (${r.hopping.top[0].samples.join(' × ')})`}
        </p>
      )}
      <table className="grid" data-testid="lane-samples">
        <caption className="visually-hidden">Reads per sample</caption>
        <thead>
          <tr>
            <th scope="col">Sample</th>
            <th scope="col">Barcode</th>
            <th scope="col">Reads</th>
            <th scope="col">One mismatch</th>
            <th scope="col">Two mismatches</th>
          </tr>
        </thead>
        <tbody>
          {(lane.samples ?? []).map((s) => {
            const rs = r?.samples.find((x) => x.name === s.name);
            return (
              <tr key={s.name}>
                <td>
                  {s.name}
                  {s.sample_id === null && <span className="field-message"> no sample created</span>}
                </td>
                <td>{s.barcode}</td>
                <td>{s.reads?.toLocaleString() ?? '—'}</td>
                <td>{rs?.one_mismatch.toLocaleString() ?? '—'}</td>
                <td>{rs?.two_mismatches.toLocaleString() ?? '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {r && r.top_unknown.length > 0 && (
        <details>
          <summary>Most frequent unknown barcodes</summary>
          <ol data-testid="lane-unknown">
            {r.top_unknown.slice(0, 10).map((u) => (
              <li key={u.barcode}>
                {u.barcode}: {u.count.toLocaleString()} reads
                {u.nearest && ` (nearest ${u.nearest}, ${u.distance} apart)`}
              </li>
            ))}
          </ol>
        </details>
      )}
      <button type="button" className="btn" onClick={onOpen}>
        Open the samples
      </button>
      {/* Once the lane's samples have been through QC, MultiQC summarises the lane. */}
      <MultiqcReportPanel segment="lanes" id={lane.id} />
    </div>
  );
}
