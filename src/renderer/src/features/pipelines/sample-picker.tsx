/**
 * Picks the samples for a launch, marking each one the version cannot take (ours from the
 * requirements, or the service's INVALID_SAMPLES reasons) right on its row.
 */
import { useState } from 'react';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import type { Execution, PipelineVersion, Sample } from '../../service-client/types';
import { ErrorNotice } from '../../ui/error-notice';
import { useQuery } from '../../ui/use-query';
import { sampleProblem } from './requirements';
import { getSamples } from '../../../../shared/service-api/endpoints';

export interface SamplePickerProps {
  requirements: PipelineVersion['requirements'];
  serviceReasons: Record<number, string>;
  /** Reports the selected samples the picker knows, for the launch checks. */
  known(samples: Sample[]): void;
  /** The execution the launch chains from: with no sample ticked, its samples are the ones run. */
  chainedFrom?: Execution | null;
}

/** What a chained launch with no sample ticked runs on (the service takes the upstream's samples). */
function chainNote(e: Execution): string {
  const names = (e.samples ?? []).map((s) => s.name ?? `#${s.id}`);
  const which = names.length ? `its samples (${names.join(', ')})` : 'its samples';
  return `None ticked: it runs on ${which}, the outputs of ${e.name} (#${e.id}). Tick samples to run on only some.`;
}

/** Renders the searchable sample list with checkboxes. */
export function SamplePicker({ requirements, serviceReasons, known, chainedFrom }: SamplePickerProps) {
  const { client } = useServices();
  const selected = useAppStore((s) => s.selectedSampleIds);
  const toggle = useAppStore((s) => s.toggleSample);
  const [search, setSearch] = useState('');
  const q = useQuery(
    () =>
      client.call(getSamples, { query: { per_page: 100, name: search } }).then((p) => {
        known(p.items);
        return p;
      }),
    `picker:${search}`,
  );
  return (
    <fieldset className="card sample-picker" data-testid="sample-picker">
      <legend>Samples ({selected.length} selected)</legend>
      {/* "0 selected" alone read as if samples had to be ticked before a chained launch. */}
      {chainedFrom && selected.length === 0 && (
        <p className="notice" role="note" data-testid="chained-samples">
          {chainNote(chainedFrom)}
        </p>
      )}
      <label className="field">
        <span>Find samples</span>
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      <ErrorNotice error={q.error} onRetry={q.reload} />
      <ul className="plain-list picker-list">
        {(q.data?.items ?? []).map((s) => {
          const problem = serviceReasons[s.id] ?? sampleProblem(s, requirements);
          return (
            <li key={s.id} data-testid={`pick-${s.id}`} className={problem ? 'row-invalid' : undefined}>
              <label>
                <input
                  type="checkbox"
                  checked={selected.includes(s.id)}
                  onChange={() => toggle(s.id)}
                  // Only the service's verdict on a chosen sample is an error to fix; our own
                  // requirement notes are advice shown before choosing.
                  aria-invalid={serviceReasons[s.id] ? true : undefined}
                  aria-describedby={problem ? `pick-problem-${s.id}` : undefined}
                />{' '}
                {s.name}
              </label>
              {problem && (
                <span className="field-message" id={`pick-problem-${s.id}`}>
                  {problem}
                </span>
              )}
            </li>
          );
        })}
        {q.data && q.data.items.length === 0 && <li className="muted">No samples found.</li>}
      </ul>
    </fieldset>
  );
}
