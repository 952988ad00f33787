/**
 * The pipeline catalogue by category; choosing a pipeline opens its launch form at its own
 * address (`#/pipelines/<id>?version=<version id>&upstream=<execution id>`), so the form can be
 * bookmarked, reloaded and left with Back, and a chain from an execution lives only in the
 * address that asked for it (issue 16 item 1: a remembered chain leaked into later launches).
 */
import { useAppStore } from '../../store';
import { formatHash } from '../../store/route';
import { useServices } from '../../service-client/services-context';
import { categoryName, type Pipeline } from '../../service-client/types';
import { chainsFrom } from '../../../../shared/pipelines/chainable';
import { ErrorNotice } from '../../ui/error-notice';
import { plural } from '../../ui/format';
import { Loading, ScreenHeader } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { LaunchForm } from './launch-form';
import { getExecutionsById, getPipelines, getPipelinesVersionsById } from '../../../../shared/service-api/endpoints';

function VersionLaunch({
  pipeline,
  versionId,
  upstream,
  rerun,
}: {
  pipeline: Pipeline;
  versionId: number;
  upstream: number | null;
  /** The execution to re-run (the form is filled in from it). */
  rerun: number | null;
}) {
  const { client } = useServices();
  const q = useQuery(
    () => client.call(getPipelinesVersionsById, { params: { id: versionId } }),
    `version:${versionId}`,
  );
  const from = useQuery(
    () => (rerun === null ? Promise.resolve(null) : client.call(getExecutionsById, { params: { id: rerun } })),
    `rerun:${rerun}`,
  );
  if ((q.loading && !q.data) || (from.loading && !from.data)) return <Loading what="the version's parameters" />;
  if (q.error || from.error)
    return (
      <ErrorNotice
        error={q.error ?? from.error}
        onRetry={() => {
          q.reload();
          from.reload();
        }}
      />
    );
  return q.data ? (
    <LaunchForm
      key={`${versionId}:${upstream}:${rerun}`}
      pipeline={pipeline}
      version={q.data}
      upstream={upstream}
      rerunOf={from.data ?? null}
    />
  ) : null;
}

const latestOf = (p: Pipeline) => p.versions.find((v) => v.is_latest) ?? p.versions[p.versions.length - 1];

/** Renders the catalogue and, once a pipeline is chosen, its versions and the launch form. */
export function PipelinesScreen() {
  const { client } = useServices();
  const params = useAppStore((s) => s.params);
  const navigate = useAppStore((s) => s.navigate);
  const selected = useAppStore((s) => s.selectedSampleIds.length);
  const list = useQuery(() => client.call(getPipelines), 'pipelines');
  const upstream = typeof params.upstream === 'number' ? params.upstream : null;
  const rerun = typeof params.rerun === 'number' ? params.rerun : null;
  const pipeline = list.data?.find((p) => p.id === params.id) ?? null;
  const versionId =
    pipeline && typeof params.version === 'number' && pipeline.versions.some((v) => v.id === params.version)
      ? params.version
      : pipeline
        ? latestOf(pipeline)?.id
        : undefined;
  // Chaining: only the pipelines that take this execution's outputs (another started from the
  // samples' own reads while the page said "on the outputs of execution #N").
  const from = useQuery(
    () => (upstream === null ? Promise.resolve(null) : client.call(getExecutionsById, { params: { id: upstream } })),
    `chain-from:${upstream}`,
  );
  const fromName = from.data?.pipeline?.name ?? null;
  const offered = (list.data ?? []).filter(
    (p) => upstream === null || (fromName !== null && chainsFrom(p.upstream_pipelines, fromName)),
  );
  const byCategory = new Map<string, Pipeline[]>();
  for (const p of offered) {
    const c = categoryName(p.category);
    byCategory.set(c, [...(byCategory.get(c) ?? []), p]);
  }
  const open = (p: Pipeline) => navigate('pipelines', { id: p.id, ...(upstream ? { upstream } : {}) });
  return (
    <section aria-labelledby="pipelines-title">
      <ScreenHeader title="Pipelines" id="pipelines-title" />
      {list.loading && !list.data && <Loading what="the pipeline catalogue" />}
      <ErrorNotice error={list.error} onRetry={list.reload} />
      <ErrorNotice error={from.error} onRetry={from.reload} />
      {list.data && params.id !== undefined && !pipeline && (
        <p className="notice notice-bad" role="alert">
          No pipeline {String(params.id)} here: it may have been removed. Choose one from the catalogue.
        </p>
      )}
      {list.data && upstream !== null && !pipeline && (
        <p className="notice" data-testid="chain-note">
          {offered.length
            ? `Choose the pipeline to run on the outputs of ${from.data?.name ?? `execution #${upstream}`} (#${upstream}, ${fromName}): these take them.`
            : fromName
              ? `No pipeline takes the outputs of ${fromName} (execution #${upstream}).`
              : `Execution #${upstream}…`}{' '}
          <a href={formatHash('pipelines')} onClick={(e) => (e.preventDefault(), navigate('pipelines'))}>
            Start from samples instead
          </a>
        </p>
      )}
      {list.data && upstream === null && !pipeline && selected > 0 && (
        <p className="notice" data-testid="selection-note">
          Choose the pipeline to run on the {plural(selected, 'selected sample')}; the launch form lists them and you
          can change them there.
        </p>
      )}
      {!pipeline &&
        [...byCategory].map(([category, pipelines]) => (
          <section key={category} className="card" aria-label={category}>
            <h3>{category}</h3>
            <ul className="plain-list" data-testid={`category-${category}`}>
              {pipelines.map((p) => (
                <li key={p.id}>
                  <a
                    href={formatHash('pipelines', { id: p.id, ...(upstream ? { upstream } : {}) })}
                    className="link-button"
                    onClick={(e) => {
                      e.preventDefault();
                      open(p);
                    }}
                  >
                    {p.name}
                  </a>{' '}
                  <span className="muted">
                    {p.description}
                    {p.estimated_runtime ? ` · ${p.estimated_runtime}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ))}
      {pipeline && versionId !== undefined && (
        <div className="card" data-testid="pipeline-launch">
          <div className="screen-header">
            <h3 data-route-focus>{pipeline.name}</h3>
            <label className="field">
              <span>Version</span>
              <select
                value={versionId}
                onChange={(e) =>
                  navigate('pipelines', {
                    id: pipeline.id,
                    version: Number(e.target.value),
                    ...(upstream ? { upstream } : {}),
                  })
                }
              >
                {pipeline.versions.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.version}
                    {v.is_latest ? ' (latest)' : ''}
                  </option>
                ))}
              </select>
            </label>
            <div className="screen-actions">
              <button type="button" className="btn" onClick={() => navigate('pipelines')}>
                Back to the catalogue
              </button>
            </div>
          </div>
          <p className="muted">{pipeline.description}</p>
          <VersionLaunch pipeline={pipeline} versionId={versionId} upstream={upstream} rerun={rerun} />
        </div>
      )}
    </section>
  );
}
