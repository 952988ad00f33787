/** The pipeline catalogue by category; choosing a version opens its launch form. */
import { useState } from 'react';
import { useServices } from '../../service-client/services-context';
import { categoryName, type Pipeline, type PipelineVersion } from '../../service-client/types';
import { ErrorNotice } from '../../ui/error-notice';
import { Loading, ScreenHeader } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { LaunchForm } from './launch-form';

function VersionLaunch({ pipeline, versionId }: { pipeline: Pipeline; versionId: number }) {
  const { client } = useServices();
  const q = useQuery(() => client.get<PipelineVersion>(`/api/pipelines/versions/${versionId}`), `version:${versionId}`);
  if (q.loading && !q.data) return <Loading what="the version's parameters" />;
  if (q.error) return <ErrorNotice error={q.error} onRetry={q.reload} />;
  return q.data ? <LaunchForm key={versionId} pipeline={pipeline} version={q.data} /> : null;
}

/** Renders the catalogue and, once a pipeline is chosen, its versions and the launch form. */
export function PipelinesScreen() {
  const { client } = useServices();
  const list = useQuery(() => client.get<Pipeline[]>('/api/pipelines'), 'pipelines');
  const [chosen, setChosen] = useState<{ pipeline: Pipeline; versionId: number } | null>(null);
  const byCategory = new Map<string, Pipeline[]>();
  for (const p of list.data ?? []) {
    const c = categoryName(p.category);
    byCategory.set(c, [...(byCategory.get(c) ?? []), p]);
  }
  const choose = (p: Pipeline) => {
    const latest = p.versions.find((v) => v.is_latest) ?? p.versions[p.versions.length - 1];
    if (latest) setChosen({ pipeline: p, versionId: latest.id });
  };
  return (
    <section aria-labelledby="pipelines-title">
      <ScreenHeader title="Pipelines" id="pipelines-title" />
      {list.loading && !list.data && <Loading what="the pipeline catalogue" />}
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {!chosen &&
        [...byCategory].map(([category, pipelines]) => (
          <section key={category} className="card" aria-label={category}>
            <h3>{category}</h3>
            <ul className="plain-list" data-testid={`category-${category}`}>
              {pipelines.map((p) => (
                <li key={p.id}>
                  <button type="button" className="link-button" onClick={() => choose(p)}>
                    {p.name}
                  </button>
                  <span className="muted">
                    {p.description} {p.estimated_runtime ? `· about ${p.estimated_runtime}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ))}
      {chosen && (
        <div className="card" data-testid="pipeline-launch">
          <div className="screen-header">
            <h3>{chosen.pipeline.name}</h3>
            <label className="field">
              <span>Version</span>
              <select
                value={chosen.versionId}
                onChange={(e) => setChosen({ ...chosen, versionId: Number(e.target.value) })}
              >
                {chosen.pipeline.versions.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.version}
                    {v.is_latest ? ' (latest)' : ''}
                  </option>
                ))}
              </select>
            </label>
            <div className="screen-actions">
              <button type="button" className="btn" onClick={() => setChosen(null)}>
                Back to the catalogue
              </button>
            </div>
          </div>
          <p className="muted">{chosen.pipeline.description}</p>
          <VersionLaunch pipeline={chosen.pipeline} versionId={chosen.versionId} />
        </div>
      )}
    </section>
  );
}
