/**
 * Samples and their data: search and filter, select for a project or a launch, open one for
 * its metadata, files and sharing.
 */
import { useState } from 'react';
import { getCategories, getOrganisms, getSamples } from '../../../../shared/service-api/endpoints';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import { NotOffered, useServiceOffers } from '../../ui/service-offers';
import { ErrorNotice } from '../../ui/error-notice';
import { Pager } from '../../ui/pager';
import { Loading, ScreenHeader } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { CreateProjectForm } from './create-project-form';
import { DataFilesPanel } from './data-files-panel';
import { SampleDetail } from './sample-detail';
import { SamplesTable } from './samples-table';

const PER_PAGE = 25;
const names = (v: ReadonlyArray<{ name: string }> | undefined) => (v ?? []).map((x) => x.name);

/** Renders the samples screen. */
export function SamplesScreen() {
  const { client } = useServices();
  const offers = useServiceOffers();
  const selected = useAppStore((s) => s.selectedSampleIds);
  const toggle = useAppStore((s) => s.toggleSample);
  const navigate = useAppStore((s) => s.navigate);
  const params = useAppStore((s) => s.params);
  const setSelected = useAppStore((s) => s.setSelectedSamples);
  // The open sample is part of the address (#/samples/12): reload and Back keep it.
  const open = typeof params.id === 'number' ? params.id : null;
  const setOpen = (id: number | null) => navigate('samples', id === null ? {} : { id });
  const [search, setSearch] = useState('');
  const [organism, setOrganism] = useState('');
  const [category, setCategory] = useState('');
  const [page, setPage] = useState(1);
  const query = { page, per_page: PER_PAGE, name: search, organism, category };
  const list = useQuery(() => client.call(getSamples, { query }), JSON.stringify(query));
  const organisms = useQuery(() => client.call(getOrganisms), 'organisms');
  const categories = useQuery(() => client.call(getCategories), 'categories');

  return (
    <section aria-labelledby="samples-title">
      <ScreenHeader title="Samples & data" id="samples-title">
        <button
          type="button"
          className="btn"
          disabled={selected.length === 0}
          onClick={() => navigate('pipelines')}
          title={selected.length === 0 ? 'Select samples first' : undefined}
        >
          Analyse {selected.length} selected
        </button>
      </ScreenHeader>
      <div className="toolbar" role="search">
        <label className="field">
          <span>Search</span>
          <input
            type="search"
            value={search}
            placeholder="Sample name"
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </label>
        <label className="field">
          <span>Organism</span>
          <select value={organism} onChange={(e) => (setOrganism(e.target.value), setPage(1))}>
            <option value="">Any organism</option>
            {names(organisms.data).map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Category</span>
          <select value={category} onChange={(e) => (setCategory(e.target.value), setPage(1))}>
            <option value="">Any category</option>
            {names(categories.data).map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
      </div>
      {offers.projectChanges ? (
        <CreateProjectForm onCreated={() => navigate('projects')} />
      ) : (
        <NotOffered what="Creating projects from this app" />
      )}
      {list.loading && !list.data && <Loading what="samples" />}
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.data && (
        <>
          <SamplesTable
            samples={list.data.items}
            selected={selected}
            onToggle={toggle}
            onSelectAll={(ids, on) =>
              setSelected(on ? [...new Set([...selected, ...ids])] : selected.filter((x) => !ids.includes(x)))
            }
            onOpen={setOpen}
          />
          {list.data.items.length === 0 && (
            <p className="muted" data-testid="samples-empty">
              {search || organism || category
                ? 'No samples match these filters. Clear them to see every sample.'
                : 'No samples yet. Add reads on the Uploads screen, or watch an instrument folder.'}
            </p>
          )}
          <Pager page={page} perPage={PER_PAGE} count={list.data.count} onPage={setPage} />
        </>
      )}
      {open !== null && <SampleDetail id={open} onClose={() => setOpen(null)} />}
      <DataFilesPanel />
    </section>
  );
}
