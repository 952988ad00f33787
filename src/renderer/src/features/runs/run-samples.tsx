/**
 * What a watched run holds, by name (issue 20 item 8: a run's page named no samples): the
 * samples its proposal found (paired or single), or the lane it became, or its loose files.
 */
import type { Run } from '../../../../shared/desktop-api/contract';
import { plural } from '../../ui/format';

/** The sentence under a run's timeline; null before the run has been read. */
export function runContents(run: Pick<Run, 'proposal'>): string | null {
  const p = run.proposal;
  if (!p) return null;
  const samples = p.samples.filter((s) => !s.excluded);
  if (p.kind === 'lane' && p.lane) return `One multiplexed lane: ${p.lane.name} (demultiplexed on the service).`;
  if (samples.length > 0) {
    const paired = samples.filter((s) => s.read2 !== null).length;
    const how = paired === samples.length ? ', paired' : paired === 0 ? ', single-end' : ` (${paired} paired)`;
    return `${plural(samples.length, 'sample')}${how}: ${samples.map((s) => s.name).join(', ')}.`;
  }
  if (p.loose.length > 0)
    return `${plural(p.loose.length, 'file')} without a sample: ${p.loose.map((f) => f.split(/[\\/]/).pop()).join(', ')}.`;
  return 'No FASTQ file found in it yet.';
}

/** Renders the sentence (nothing when there is none). */
export function RunSamples({ run }: { run: Run }) {
  const text = runContents(run);
  return text ? (
    <p data-testid="run-samples">
      <strong>In this run:</strong> {text}
    </p>
  ) : null;
}
