/** Projects: the caller's projects, one project's samples and sharing, and deletion. */
import { useState } from 'react';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import { useRevealOnLoad } from '../../ui/use-reveal';
import { NotOffered, useServiceOffers } from '../../ui/service-offers';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorNotice } from '../../ui/error-notice';
import { MultiqcReportPanel } from '../../ui/multiqc-report-panel';
import { formatTime, plural } from '../../ui/format';
import { Pager } from '../../ui/pager';
import { QcTable } from '../../ui/qc-table';
import { sharedProjectNote } from './shared-project';
import { Loading, ScreenHeader } from '../../ui/section';
import { SharePanel } from '../../ui/share-panel';
import { useQuery } from '../../ui/use-query';
import { deleteProjectsById, getProjects, getProjectsById, getSamples } from '../../../../shared/service-api/endpoints';

const PER_PAGE = 25;

function ProjectDetail({ id, onDeleted }: { id: number; onDeleted(): void }) {
  const { client } = useServices();
  const setSelected = useAppStore((s) => s.setSelectedSamples);
  const navigate = useAppStore((s) => s.navigate);
  const pushToast = useAppStore((s) => s.pushToast);
  const me = useAppStore((s) => s.auth?.user?.username ?? null);
  const q = useQuery(() => client.call(getProjectsById, { params: { id } }), `project:${id}`);
  // The project names its samples by id; the samples list filtered by project gives their names.
  const members = useQuery(
    () => client.call(getSamples, { query: { project: id, per_page: 100 } }),
    `project-samples:${id}`,
  );
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const title = useRevealOnLoad(q.data !== undefined);
  const samples = members.data?.items ?? [];
  const sampleIds = q.data?.sample_ids ?? [];
  const remove = async () => {
    try {
      await client.call(deleteProjectsById, { params: { id } });
      pushToast({ tone: 'ok', message: `Project ${q.data?.name ?? id} deleted` });
      setConfirm(false);
      onDeleted();
    } catch (err) {
      setConfirm(false);
      setError(err);
    }
  };
  return (
    <section className="card" aria-labelledby="project-detail-title" data-testid="project-detail">
      {q.loading && <Loading what="the project" />}
      <ErrorNotice error={q.error ?? error} onRetry={q.reload} />
      <ErrorNotice error={members.error} onRetry={members.reload} />
      {q.data && (
        <>
          <div className="screen-header">
            <h3 id="project-detail-title" ref={title} tabIndex={-1}>
              {q.data.name}
            </h3>
            <div className="screen-actions">
              <button
                type="button"
                className="btn"
                disabled={sampleIds.length === 0}
                onClick={() => {
                  setSelected(sampleIds);
                  navigate('pipelines');
                }}
              >
                Analyse its samples
              </button>
              {/* A colleague who may only view it is not offered what she cannot do. */}
              {q.data.can_edit && (
                <button type="button" className="btn btn-danger" onClick={() => setConfirm(true)}>
                  Delete project
                </button>
              )}
            </div>
          </div>
          <p className="muted">
            Owned by {q.data.group_owner ? `group ${q.data.group_owner}` : (q.data.owner ?? '—')} · created{' '}
            {formatTime(q.data.created)}
          </p>
          {members.data && sharedProjectNote(q.data, me, samples.length) && (
            <p className="notice" role="note" data-testid="project-shared-note">
              {sharedProjectNote(q.data, me, samples.length)}
            </p>
          )}
          <h4>Samples ({(q.data.samples ?? sampleIds).length})</h4>
          <ul className="plain-list" data-testid="project-samples">
            {(q.data.samples ?? samples).length > 0
              ? (q.data.samples ?? samples).map((s, i) => <li key={s.id ?? `name-${i}`}>{s.name}</li>)
              : sampleIds.map((sid) => <li key={sid}>Sample {sid}</li>)}
          </ul>
          <h4>Quality summary</h4>
          <QcTable segment="projects" id={id} />
          <MultiqcReportPanel segment="projects" id={id} />
          <SharePanel segment="projects" id={id} canShare={q.data.can_share === true} />
          <ConfirmDialog
            open={confirm}
            title={`Delete project ${q.data.name}?`}
            cancelLabel="Keep the project"
            confirmLabel="Delete project"
            tone="danger"
            onConfirm={() => void remove()}
            onCancel={() => setConfirm(false)}
          >
            The samples stay; only the project and its shares are removed.
          </ConfirmDialog>
        </>
      )}
    </section>
  );
}

/** Renders the projects screen. */
export function ProjectsScreen() {
  const { client } = useServices();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const offers = useServiceOffers();
  // The open project is part of the address (#/projects/3).
  const params = useAppStore((s) => s.params);
  const navigate = useAppStore((s) => s.navigate);
  const open = typeof params.id === 'number' ? params.id : null;
  const setOpen = (id: number | null) => navigate('projects', id === null ? {} : { id });
  const query = { page, per_page: PER_PAGE };
  const list = useQuery(() => client.call(getProjects, { query }), JSON.stringify(query));
  // The service lists projects without a name filter: filter the page shown.
  const needle = search.trim().toLowerCase();
  const items = (list.data?.items ?? []).filter((p) => !needle || p.name.toLowerCase().includes(needle));
  return (
    <section aria-labelledby="projects-title">
      <ScreenHeader title="Projects" id="projects-title" />
      {offers.projectChanges ? (
        <p className="muted">Create a project by selecting samples on the Samples screen.</p>
      ) : (
        <NotOffered what="Creating and changing projects from this app" />
      )}
      <div className="toolbar" role="search">
        <label className="field">
          <span>Filter projects on this page</span>
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
      </div>
      {list.loading && !list.data && <Loading what="projects" />}
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.data && (
        <>
          <ul className="plain-list" data-testid="projects-list">
            {items.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  className="link-button"
                  aria-current={p.id === open ? 'true' : undefined}
                  onClick={() => setOpen(p.id)}
                >
                  {p.name}
                </button>
                <span className="muted">
                  {plural((p.samples ?? p.sample_ids).length, 'sample')} ·{' '}
                  {p.group_owner ? `group ${p.group_owner}` : (p.owner ?? '')}
                </span>
              </li>
            ))}
          </ul>
          {items.length === 0 && (
            <p className="muted">{needle ? 'No project on this page matches.' : 'No projects yet.'}</p>
          )}
          <Pager page={page} perPage={PER_PAGE} count={list.data.count} onPage={setPage} />
        </>
      )}
      {open !== null && (
        <ProjectDetail
          key={open}
          id={open}
          onDeleted={() => {
            setOpen(null);
            list.reload();
          }}
        />
      )}
    </section>
  );
}
