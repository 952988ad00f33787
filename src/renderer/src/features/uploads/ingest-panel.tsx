/**
 * Adding files: drop files or folders on the window (Electron gives their paths), or type the
 * paths (browser mode: a browser never reveals where a dropped file lives). The desktop core
 * proposes samples or a lane; the technician edits and confirms.
 */
import { useEffect, useRef, useState } from 'react';
import type { Proposal } from '../../../../shared/desktop-api/contract';
import type { LanewayFiles } from '../../../../shared/desktop-api/dropped-files';
import { missingMetadataMessage } from '../../../../shared/desktop-api/sample-metadata';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { formatBytes, plural } from '../../ui/format';
import { ProposalEditor } from './proposal-editor';
import { goesUp } from './proposal-sample-status';

/** Electron's preload helper (absent in browser mode, where a File never tells its path). */
const files = (window as Window & { lanewayFiles?: LanewayFiles<File> }).lanewayFiles;

function droppedPaths(e: DragEvent): string[] {
  return [...(e.dataTransfer?.files ?? [])]
    .map((f) => (files ? files.pathFor(f) : ((f as File & { path?: string }).path ?? '')))
    .filter((p) => p !== '');
}

/** "2 samples, 1 lane, 3.4 GB": what the proposal would upload. */
function summaryOf(p: Proposal): string {
  const parts: string[] = [];
  if (p.samples.length) parts.push(plural(p.samples.length, 'sample'));
  if (p.lane) parts.push('1 lane');
  if (p.loose.length) parts.push(plural(p.loose.length, 'plain file'));
  if (parts.length === 0) return 'nothing';
  return `${parts.join(', ')}, ${formatBytes(p.total_bytes)}`;
}

/** Renders the panel and listens for drops on the whole window while mounted. */
export function IngestPanel() {
  const { api } = useServices();
  const pushToast = useAppStore((s) => s.pushToast);
  const [paths, setPaths] = useState('');
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [dropNote, setDropNote] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  // After "Propose samples" focus moves to the proposal, whose actions come first (issue 16
  // item 9: focus dropped to the page and Confirm was 21 Tabs away).
  const [focusProposal, setFocusProposal] = useState(0);
  const proposalHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusProposal) proposalHeading.current?.focus();
  }, [focusProposal]);
  // After "Confirm and upload" the proposal, and the button with focus, go: focus moves to this
  // panel's heading, and the view with it to the queue just below. Left where it was, focus fell
  // to the page, and the view stayed as far down as the proposal had been scrolled, in the middle
  // of the queue's table.
  const [focusPanel, setFocusPanel] = useState(0);
  const panelHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusPanel) panelHeading.current?.focus();
  }, [focusPanel]);

  // MinKNOW's fastq_fail batches are left out unless the technician asks for them.
  const [includeFailed, setIncludeFailed] = useState(false);
  const [proposed, setProposed] = useState<string[]>([]);
  const propose = async (list: string[], failed = includeFailed) => {
    setError(null);
    setBusy(true);
    try {
      setProposal(await api.ingest.propose({ paths: list, ...(failed ? { include_failed: true } : {}) }));
      setProposed(list);
      setFocusProposal((n) => n + 1);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    const over = (e: DragEvent) => {
      e.preventDefault();
      setDragging(true);
    };
    const leave = () => setDragging(false);
    const drop = (e: DragEvent) => {
      e.preventDefault();
      setDragging(false);
      const list = droppedPaths(e);
      if (list.length) {
        setDropNote(null);
        void propose(list);
      } else
        setDropNote(
          'This browser does not tell Laneway where dropped files live: type or paste their paths below instead.',
        );
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
    // propose only reads stable values
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Samples without Organism and Category would be refused after their upload: block here.
  // Only the samples that go up count (left-out rows and samples already on the service do not).
  const going = proposal?.samples.filter(goesUp) ?? [];
  const blocked =
    proposal?.kind === 'samples'
      ? going.length === 0 && proposal.loose.length === 0
        ? 'Nothing to upload: every sample is left out or already on the service'
        : missingMetadataMessage(going)
      : null;

  const confirm = async () => {
    if (!proposal || proposal.kind === 'empty' || blocked) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api.ingest.confirm({
        kind: proposal.kind,
        samples: proposal.samples,
        lane: proposal.lane,
        loose: proposal.loose,
      });
      const skipped = proposal.samples.length - going.length;
      pushToast({
        tone: 'ok',
        message: `${r.jobs.length} file${r.jobs.length === 1 ? '' : 's'} queued for upload${
          skipped ? `; ${skipped} sample${skipped === 1 ? '' : 's'} left out or already on the service` : ''
        }`,
      });
      setProposal(null);
      setPaths('');
      setFocusPanel((n) => n + 1);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={`card drop-zone${dragging ? ' drop-active' : ''}`} aria-labelledby="ingest-title">
      <h3 id="ingest-title" ref={panelHeading} tabIndex={-1}>
        Add sequencing files
      </h3>
      <p className="muted">
        Drop FASTQ files, a run folder or references (FASTA, GTF, GFF3, BED) anywhere on this window, or give their
        paths.
      </p>
      {dropNote && (
        <p className="notice notice-warn" role="status">
          {dropNote}
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void propose(
            paths
              .split('\n')
              .map((p) => p.trim())
              .filter(Boolean),
          );
        }}
      >
        <label className="field">
          <span>Files or folders (one path per line)</span>
          <textarea rows={3} value={paths} onChange={(e) => setPaths(e.target.value)} data-testid="ingest-paths" />
        </label>
        <button type="submit" className="btn" disabled={busy || !paths.trim()}>
          Propose samples
        </button>
      </form>
      <ErrorNotice error={error} />
      {proposal && (
        <section aria-labelledby="proposal-title" data-testid="proposal-region">
          <h4 id="proposal-title" ref={proposalHeading} tabIndex={-1}>
            Proposed upload: {summaryOf(proposal)}
          </h4>
          <div className="inline-form">
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy || proposal.kind === 'empty' || blocked !== null}
              aria-describedby={blocked ? 'confirm-blocked' : undefined}
              onClick={() => void confirm()}
            >
              Confirm and upload
            </button>
            <button type="button" className="btn" onClick={() => setProposal(null)}>
              Discard proposal
            </button>
          </div>
          {blocked && (
            <p id="confirm-blocked" className="field-message" role="status" data-testid="confirm-blocked">
              {blocked}
            </p>
          )}
          {proposal.run?.kind === 'nanopore' && (
            <label>
              <input
                type="checkbox"
                checked={includeFailed}
                disabled={busy}
                data-testid="include-failed"
                onChange={(e) => {
                  setIncludeFailed(e.target.checked);
                  void propose(proposed, e.target.checked);
                }}
              />{' '}
              Add the fastq_fail batches (after the pass batches)
            </label>
          )}
          {proposal.kind === 'empty' ? (
            <p className="notice notice-warn">Nothing to upload in what was given.</p>
          ) : (
            <ProposalEditor proposal={proposal} onChange={setProposal} />
          )}
        </section>
      )}
    </section>
  );
}
