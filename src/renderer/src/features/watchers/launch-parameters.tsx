/**
 * The parameters of the pipeline a watched folder launches, as the launch form shows them:
 * typed fields with human labels, help, bounds and defaults from the pipeline's manifest, checked
 * by the service's own rules, instead of raw JSON (issue 16 item 12).
 */
import { useEffect, useMemo, useState } from 'react';
import type { PipelineParameter } from '../../../../shared/pipelines/parameters';
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { initialRaw, ParameterField, type RawValue } from '../../ui/parameter-field';
import { useParameterValues } from '../../ui/use-parameter-values';
import { Loading } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { getPipelines, getPipelinesVersionsById } from '../../../../shared/service-api/endpoints';

export interface LaunchParameterState {
  values: Record<string, unknown>;
  /** Messages of parameters that would be refused; empty when the values are good. */
  problems: Record<string, string>;
}

/** Renders the fields of `pipeline`'s latest version; every change reports the values to send. */
export function LaunchParameters({
  pipeline,
  initial,
  idPrefix,
  showProblems,
  onChange,
}: {
  pipeline: string;
  initial: Record<string, unknown>;
  idPrefix: string;
  showProblems: boolean;
  onChange(state: LaunchParameterState): void;
}) {
  const { client } = useServices();
  const version = useQuery(async () => {
    const list = await client.call(getPipelines);
    const p = list.find((x) => x.name === pipeline);
    const latest = p?.versions.find((v) => v.is_latest) ?? p?.versions.at(-1);
    return latest ? client.call(getPipelinesVersionsById, { params: { id: latest.id } }) : null;
  }, `watch-launch:${pipeline}`);
  const params = useMemo(() => (version.data?.parameters ?? []) as PipelineParameter[], [version.data]);
  const [raw, setRaw] = useState<Record<string, RawValue>>({});
  // Start from what the folder had (or the defaults) once the parameters are known.
  useEffect(() => {
    setRaw(
      Object.fromEntries(
        params.map((p) => {
          const had = initial[p.name];
          if (had === undefined) return [p.name, initialRaw(p)];
          if (p.type === 'boolean') return [p.name, had === true];
          return [p.name, Array.isArray(had) ? had.join('\n') : String(had)];
        }),
      ),
    );
    // `initial` is the saved settings: read once per pipeline.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params]);
  const { values, check } = useParameterValues(params, raw);
  const problems = useMemo(() => {
    const out: Record<string, string> = { ...check.invalid };
    for (const m of check.missing) out[m] = 'is required';
    return out;
  }, [check]);
  useEffect(() => onChange({ values, problems }), [values, problems, onChange]);

  if (version.loading && !version.data) return <Loading what={`the parameters of ${pipeline}`} />;
  if (version.error) return <ErrorNotice error={version.error} onRetry={version.reload} />;
  return (
    <fieldset className="card" data-testid={`${idPrefix}launch-parameters`}>
      <legend>Parameters of {pipeline}</legend>
      {params.length === 0 && <p className="muted">This pipeline has no parameters.</p>}
      {params.map((p) => (
        <ParameterField
          key={p.name}
          idPrefix={idPrefix}
          param={p}
          raw={raw[p.name] ?? ''}
          message={showProblems || raw[p.name] !== initialRaw(p) ? (problems[p.name] ?? null) : null}
          onChange={(v) => setRaw((r) => ({ ...r, [p.name]: v }))}
        />
      ))}
    </fieldset>
  );
}
