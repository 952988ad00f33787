/**
 * Organism and Category choosers over the service's vocabularies (GET /api/organisms and
 * /api/categories): the two metadata fields the service requires on every sample.
 */
import { getCategories, getOrganisms } from '../../../shared/service-api/endpoints';
import { useServices } from '../service-client/services-context';
import { ErrorNotice } from './error-notice';
import { useQuery } from './use-query';

const names = (v: ReadonlyArray<{ name: string }> | undefined) => (v ?? []).map((x) => x.name);

export interface Vocabularies {
  organisms: string[];
  categories: string[];
  error: unknown;
}

/** Loads both vocabularies once per mount. */
export function useVocabularies(): Vocabularies {
  const { client } = useServices();
  const organisms = useQuery(() => client.call(getOrganisms), 'organisms');
  const categories = useQuery(() => client.call(getCategories), 'categories');
  return {
    organisms: names(organisms.data),
    categories: names(categories.data),
    error: organisms.error ?? categories.error,
  };
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Two selects editing `organism` and `category` in a metadata object; `about` ends their labels. */
export function MetadataChoosers({
  vocab,
  value,
  onChange,
  about,
  compact = false,
}: {
  vocab: Vocabularies;
  value: Record<string, unknown> | undefined;
  onChange(next: Record<string, unknown>): void;
  about?: string;
  compact?: boolean;
}) {
  const set = (key: 'organism' | 'category', v: string) => {
    const next = { ...(value ?? {}) };
    if (v) next[key] = v;
    else delete next[key];
    onChange(next);
  };
  const field = (key: 'organism' | 'category', label: string, list: string[]) => {
    const select = (
      <select
        aria-label={compact ? `${label}${about ? ` of ${about}` : ''}` : undefined}
        value={text(value?.[key])}
        onChange={(e) => set(key, e.target.value)}
      >
        <option value="">Choose…</option>
        {list.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
    return compact ? (
      select
    ) : (
      <label className="field">
        <span>
          {label}
          {about ? ` (${about})` : ''} <span aria-hidden="true">*</span>
        </span>
        {select}
      </label>
    );
  };
  return (
    <>
      {compact ? (
        <>
          <td>{field('organism', 'Organism', vocab.organisms)}</td>
          <td>{field('category', 'Category', vocab.categories)}</td>
        </>
      ) : (
        <div className="inline-form">
          {field('organism', 'Organism', vocab.organisms)}
          {field('category', 'Category', vocab.categories)}
        </div>
      )}
      {!compact && <ErrorNotice error={vocab.error} />}
    </>
  );
}
