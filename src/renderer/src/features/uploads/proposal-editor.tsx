/**
 * The ingest proposal, editable before anything is uploaded: sample names, Organism and
 * Category (for all samples at once, or per sample), R1/R2 pairing (swap reads, split a pair),
 * the lane's name, and the warnings about what will not go up.
 */
import { useMemo } from 'react';
import type { Proposal, ProposedSample } from '../../../../shared/desktop-api/contract';
import { formatBytes } from '../../ui/format';
import { MetadataChoosers, useVocabularies } from '../../ui/metadata-choosers';
import { RunReportSummary } from '../../ui/run-report-summary';
import { ExistingNote, SampleInclude } from './proposal-sample-status';
import { ColumnWidths } from '../../ui/column-widths';
import { SpacerRow } from '../../ui/spacer-row';
import { useRowWindow } from '../../ui/use-row-window';

const base = (p: string) => p.split(/[\\/]/).pop() ?? p;

/** The columns and their fixed widths: the name a technician edits gets the most room. */
const COLUMNS = [
  ['Sample name', '22%'],
  ['Read 1', '17%'],
  ['Read 2', '17%'],
  ['Organism', '13%'],
  ['Category', '13%'],
  ['Size', '7%'],
  ['Pairing', '11%'],
] as const;
/** A sample's row before it is laid out, px: its name over the Upload box, in Chromium. */
const ROW_ESTIMATE = 63;

/** A file name that wraps after its underscores and dots, not inside "Liver-1" or "fastq". */
function FileName({ path }: { path: string }) {
  const parts = base(path).split(/(?<=[_.])/);
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </span>
      ))}
    </>
  );
}

/** Several files joined into one read: a sample's lanes, or a Nanopore run's batches. */
function joined(parts: string[] | undefined, unit: 'lane' | 'batch') {
  if (!parts || parts.length < 2) return null;
  return (
    <span className="muted" title={parts.map(base).join('\n')}>
      {' '}
      + {parts.length - 1} more {unit}
      {parts.length > 2 ? (unit === 'batch' ? 'es' : 's') : ''}, joined in {unit} order
    </span>
  );
}

/** Renders the editor; `onChange` receives the edited proposal. */
export function ProposalEditor({ proposal, onChange }: { proposal: Proposal; onChange(p: Proposal): void }) {
  const vocab = useVocabularies();
  // A plate's hundreds of samples: only the rows near the view are in the page (2,000 rows of
  // inputs and choosers took seconds to lay out, twice, before Confirm could be pressed).
  const keys = useMemo(() => proposal.samples.map((s) => s.read1), [proposal.samples]);
  const { window: w, headRef, rowRef } = useRowWindow(keys, ROW_ESTIMATE);
  const unit = proposal.run?.kind === 'nanopore' ? 'batch' : 'lane';
  const first = proposal.samples[0]?.metadata;
  const same = (key: string) => proposal.samples.every((s) => s.metadata?.[key] === first?.[key]);
  // The "all samples" choosers show a value only while every sample has the same one.
  const shared = {
    ...(same('organism') ? { organism: first?.organism } : {}),
    ...(same('category') ? { category: first?.category } : {}),
  };
  const setAll = (next: Record<string, unknown>) =>
    onChange({
      ...proposal,
      samples: proposal.samples.map((s) => {
        const metadata = { ...(s.metadata ?? {}) };
        for (const key of ['organism', 'category'] as const)
          if (next[key] !== shared[key]) {
            if (next[key] === undefined) delete metadata[key];
            else metadata[key] = next[key];
          }
        return { ...s, metadata };
      }),
    });
  // The core's "missing metadata" warning is replaced by the live reason next to Confirm.
  const warnings = proposal.warnings.filter((w) => w.code !== 'missing-metadata');
  const setSample = (i: number, patch: Partial<ProposedSample>) =>
    onChange({ ...proposal, samples: proposal.samples.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  const split = (i: number) => {
    const s = proposal.samples[i]!;
    if (!s.read2) return;
    const r2: ProposedSample = { ...s, name: `${s.name}_R2`, read1: s.read2, read2: null };
    const samples = [...proposal.samples];
    samples.splice(i, 1, { ...s, read2: null }, r2);
    onChange({ ...proposal, samples });
  };
  return (
    <div data-testid="proposal">
      {proposal.run && (
        <p>
          Run folder <strong>{proposal.run.name}</strong> ({proposal.run.kind})
        </p>
      )}
      <RunReportSummary report={proposal.report} name={proposal.run?.name ?? 'this drop'} />
      {proposal.samples.length > 0 && (
        <fieldset className="card" data-testid="proposal-metadata">
          <legend>
            Sample metadata for{' '}
            {proposal.samples.length === 1 ? 'the sample' : `all ${proposal.samples.length} samples`}
          </legend>
          <MetadataChoosers vocab={vocab} value={shared} onChange={setAll} about="all samples" />
        </fieldset>
      )}
      {warnings.length > 0 && (
        <ul className="notice notice-warn" aria-label="Warnings" data-testid="proposal-warnings">
          {warnings.map((w, i) => (
            <li key={i}>
              {w.message}
              {w.path ? ` (${base(w.path)})` : ''}
            </li>
          ))}
        </ul>
      )}
      {proposal.samples.length > 0 && (
        <table className="grid proposal-table" data-testid="proposal-samples">
          <caption className="visually-hidden">Proposed samples</caption>
          <ColumnWidths widths={COLUMNS.map(([, width]) => width)} />
          <thead ref={headRef}>
            <tr>
              {COLUMNS.map(([name]) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          {w.padTop > 0 && (
            <tbody>
              <SpacerRow height={w.padTop} columns={COLUMNS.length} />
            </tbody>
          )}
          {/* One body per sample: its row and the note under it are measured together. */}
          {proposal.samples.slice(w.start, w.end).map((s, at) => {
            const i = w.start + at;
            return (
              <tbody key={s.read1} ref={rowRef(s.read1)}>
                <tr
                  className={s.excluded ? 'proposal-excluded' : undefined}
                  data-testid="proposal-row"
                  data-excluded={s.excluded ? 'true' : undefined}
                >
                  <td>
                    <SampleInclude sample={s} onChange={(excluded) => setSample(i, { excluded })} />
                    <input
                      className="input"
                      aria-label={`Name of the sample from ${base(s.read1)}`}
                      value={s.name}
                      onChange={(e) => setSample(i, { name: e.target.value })}
                    />
                  </td>
                  <td>
                    <FileName path={s.read1} />
                    {joined(s.read1_parts, unit)}
                  </td>
                  <td>
                    {s.read2 ? <FileName path={s.read2} /> : <span className="muted">single-end</span>}
                    {joined(s.read2_parts, unit)}
                  </td>
                  <MetadataChoosers
                    compact
                    vocab={vocab}
                    value={s.metadata}
                    onChange={(metadata) => setSample(i, { metadata })}
                    about={s.name}
                  />
                  <td>{formatBytes(s.bytes)}</td>
                  <td>
                    {s.read2 && (
                      <>
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-label={`Swap reads: ${s.name}`}
                          onClick={() => setSample(i, { read1: s.read2!, read2: s.read1 })}
                        >
                          Swap reads
                        </button>
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-label={`Unpair: ${s.name}`}
                          onClick={() => split(i)}
                        >
                          Unpair
                        </button>
                      </>
                    )}
                  </td>
                </tr>
                <ExistingNote sample={s} columns={COLUMNS.length} />
              </tbody>
            );
          })}
          {w.padBottom > 0 && (
            <tbody>
              <SpacerRow height={w.padBottom} columns={COLUMNS.length} />
            </tbody>
          )}
        </table>
      )}
      {proposal.lane && (
        <div className="card">
          <label className="field">
            <span>Lane name</span>
            <input
              value={proposal.lane.name}
              onChange={(e) => onChange({ ...proposal, lane: { ...proposal.lane!, name: e.target.value } })}
            />
          </label>
          <p className="muted">
            Reads {base(proposal.lane.file)}
            {proposal.lane.read2 ? ` + ${base(proposal.lane.read2)}` : ''}, sheet {base(proposal.lane.annotation)}
          </p>
        </div>
      )}
      {proposal.loose.length > 0 && <p>Uploaded as plain data (no sample): {proposal.loose.map(base).join(', ')}</p>}
      {proposal.ignored.length > 0 && <p className="muted">Not uploaded: {proposal.ignored.map(base).join(', ')}</p>}
      <p>Total: {formatBytes(proposal.total_bytes)}</p>
    </div>
  );
}
