/**
 * Organism and Category asked once for a watched run's whole sheet (issue 19 item 8): a run
 * whose sample sheet has no columns for them fails before any byte is sent; this form on its
 * card chooses them for this run only (not for every run of the folder) and uploads it. The
 * sheet's own per-sample values still win.
 */
import { useState } from 'react';
import type { Run } from '../../../../shared/desktop-api/contract';
import { missingSampleMetadata } from '../../../../shared/desktop-api/sample-metadata';
import { getCategories, getOrganisms } from '../../../../shared/service-api/endpoints';
import { useServices } from '../../service-client/services-context';
import { useQuery } from '../../ui/use-query';

const names = (v: ReadonlyArray<{ name: string }> | undefined) => (v ?? []).map((x) => x.name);

/** What each of a failed run's samples lacks ([] for a run that is not waiting on the answer). */
function lackingPerSample(run: Pick<Run, 'state' | 'proposal'>): string[][] {
  return run.state === 'failed' ? (run.proposal?.samples ?? []).map((s) => missingSampleMetadata(s.metadata)) : [];
}

/**
 * True while the run waits for Organism / Category: the card's plain Upload would only fail
 * again, so the prompt's own button is the one shown.
 */
export function asksForMetadata(run: Pick<Run, 'state' | 'proposal'>): boolean {
  return lackingPerSample(run).some((l) => l.length > 0);
}

/** The form, shown while the failed run's samples lack Organism or Category. */
export function RunMetadataPrompt({ run, act }: { run: Run; act(fn: () => Promise<unknown>): void }) {
  const { api, client } = useServices();
  const lacking = lackingPerSample(run);
  const fields = [...new Set(lacking.flat())];
  const organisms = useQuery(() => client.call(getOrganisms), 'organisms');
  const categories = useQuery(() => client.call(getCategories), 'categories');
  const [chosen, setChosen] = useState<Record<string, string>>({});
  if (!fields.length) return null;
  const options: Record<string, string[]> = { Organism: names(organisms.data), Category: names(categories.data) };
  const count = lacking.filter((l) => l.length).length;
  return (
    <form
      data-testid="run-metadata-prompt"
      aria-label={`Organism and Category for ${run.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        act(() => api.runs.upload({ id: run.id, sample_metadata: chosen }));
      }}
    >
      <p>
        {count} sample{count === 1 ? ' of this run has' : 's of this run have'} no {fields.join(' or ')} in the sheet:
        choose once for the whole run.
      </p>
      <div className="inline-form">
        {fields.map((f) => (
          <label className="field" key={f}>
            <span>{f} (this run)</span>
            <select
              value={chosen[f.toLowerCase()] ?? ''}
              onChange={(e) => setChosen({ ...chosen, [f.toLowerCase()]: e.target.value })}
            >
              <option value="">Choose…</option>
              {(options[f] ?? []).map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!fields.every((f) => chosen[f.toLowerCase()])}
          aria-label={`Upload with these values: ${run.name}`}
        >
          Upload
        </button>
      </div>
    </form>
  );
}
