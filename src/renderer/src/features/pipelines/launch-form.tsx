/**
 * The launch form of one pipeline version: generated from its parameters, checked live with
 * the same rules the service applies (src/shared/pipelines/parameters.ts), with the reasons a
 * launch is not possible listed beside the disabled button, and the service's
 * MISSING_PARAMETERS / INVALID_PARAMETERS / INVALID_SAMPLES placed on the fields and samples.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { PipelineParameter } from '../../../../shared/pipelines/parameters';
import { useAppStore } from '../../store';
import { ServiceError } from '../../../../shared/service-client/service-error';
import { useServices } from '../../service-client/services-context';
import type { Execution, Pipeline, PipelineVersion, Sample } from '../../service-client/types';
import { ErrorNotice } from '../../ui/error-notice';
import { useQuery } from '../../ui/use-query';
import { DEFAULT_OPTIONS, LaunchOptionsFields, optionsBody, type LaunchOptions } from './launch-options';
import { initialRaw, ParameterField, parameterLabel, type RawValue } from '../../ui/parameter-field';
import { useParameterValues } from '../../ui/use-parameter-values';
import { DataRecordPicker } from './data-record-picker';
import { optionsFromExecution, rawFromValue, rerunBody, rerunName } from './rerun-prefill';
import { readableUpstreamReferences } from './chain-prefill';
import { upstreamNames } from '../../../../shared/pipelines/chainable';
import { sampleProblem } from './requirements';
import { SamplePicker } from './sample-picker';
import {
  getExecutions,
  postExecutionsByIdRerun,
  postPipelinesVersionsByIdRun,
} from '../../../../shared/service-api/endpoints';
import type { RunBody } from '../../../../shared/service-api/pipelines';

const RESOURCE_KEYS = ['cpus', 'memory', 'queue', 'time_limit'] as const;

/**
 * The service names a refused resource `resources.cpus`; the run options mark their fields by
 * `cpus` (they stayed unmarked while the notice said "correct the fields marked on the form").
 */
function optionErrors(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^resources\./, ''), v]));
}

/**
 * A refused pattern in words: "must match [A-Za-z0-9 _.-]{1,64}" showed a regular expression to
 * the technician; the parameter's help says what it takes. The service's own answer keeps the
 * pattern for scripts.
 */
function readable(message: string): string {
  return message.replace(/\bmust match .*$/, 'is not in the form its help describes');
}

/**
 * Renders the form for `version` of `pipeline`; `upstream` is the execution the address asks to
 * chain from (null: start from the samples).
 */
/** The samples of a version that takes none (one array, so that hooks see no change). */
const NO_SAMPLES: number[] = [];

export function LaunchForm({
  pipeline,
  version,
  upstream = null,
  rerunOf = null,
}: {
  pipeline: Pipeline;
  version: PipelineVersion;
  upstream?: number | null;
  /** The execution this form re-runs: its settings fill the form, and the launch is its re-run. */
  rerunOf?: Execution | null;
}) {
  const { client } = useServices();
  const user = useAppStore((s) => s.auth?.user);
  // The selection is shared with the other screens: a version that takes no samples
  // (Demultiplexing runs on its input file) neither shows nor sends it.
  const takesSamples = version.requirements?.max_samples !== 0;
  const shared = useAppStore((s) => s.selectedSampleIds);
  const selected = takesSamples ? shared : NO_SAMPLES;
  const navigate = useAppStore((s) => s.navigate);
  const pushToast = useAppStore((s) => s.pushToast);
  const params = useMemo(() => (version.parameters ?? []) as PipelineParameter[], [version]);
  const [raw, setRaw] = useState<Record<string, RawValue>>(() =>
    Object.fromEntries(params.map((p) => [p.name, rawFromValue(p, rerunOf?.parameters?.[p.name]) ?? initialRaw(p)])),
  );
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [name, setName] = useState(
    rerunOf ? rerunName(rerunOf.name) : `${pipeline.name} ${new Date().toISOString().slice(0, 10)}`,
  );
  const [options, setOptions] = useState<LaunchOptions>(() =>
    rerunOf ? optionsFromExecution(rerunOf) : { ...DEFAULT_OPTIONS, upstream: upstream ? String(upstream) : '' },
  );
  // A re-run starts from the samples the execution ran on (the picker shows them ticked).
  const setSelected = useAppStore((s) => s.setSelectedSamples);
  const rerunSamples = rerunOf?.samples?.map((x) => x.id).join(',') ?? null;
  useEffect(() => {
    if (rerunSamples !== null) setSelected(rerunSamples ? rerunSamples.split(',').map(Number) : []);
  }, [rerunSamples, setSelected]);
  const [knownSamples, setKnownSamples] = useState<Record<number, Sample>>({});
  const [serviceFields, setServiceFields] = useState<Record<string, string>>({});
  const [serviceSamples, setServiceSamples] = useState<Record<number, string>>({});
  const [sampleNotes, setSampleNotes] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // Bumped when the service named problems: focus then moves to the first one it marked.
  const [focusProblem, setFocusProblem] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!focusProblem) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-service-error]')?.focus();
  }, [focusProblem]);
  const names = upstreamNames(pipeline.upstream_pipelines);
  const upstreams = useQuery(
    () =>
      names.length === 0
        ? Promise.resolve(null)
        : client
            .call(getExecutions, { query: { status: 'completed', per_page: 100 } })
            .then((p) => p.items.filter((x) => x.status === 'completed' && names.includes(x.pipeline?.name ?? ''))),
    `upstreams:${pipeline.id}`,
  );

  const { values: given, check } = useParameterValues(params, raw);
  // Only an execution this pipeline can chain from counts, i.e. one the "Chain from" list
  // offers: what the select shows is exactly what is sent (a chain from another pipeline's
  // execution was sent while the select showed None).
  const chainable = (upstreams.data ?? []).some((x) => String(x.id) === options.upstream);
  const effective: LaunchOptions = chainable ? options : { ...options, upstream: '' };
  const chained = effective.upstream !== '';
  const chainedFrom = chained ? (upstreams.data ?? []).find((x) => String(x.id) === effective.upstream) : null;
  // A reference left empty shows the one the upstream's alignments were made against.
  const chainedFromId = chainedFrom?.id ?? null;
  useEffect(() => {
    let current = true;
    void readableUpstreamReferences(client, params, chainedFrom ?? null).then((refs) => {
      if (!current) return;
      setRaw((r) => {
        const empty = Object.keys(refs).filter((n) => !touched[n] && (r[n] ?? '') === '');
        return empty.length ? { ...r, ...Object.fromEntries(empty.map((n) => [n, refs[n]!])) } : r;
      });
    });
    return () => {
      current = false;
    };
    // Only when the chain changes: a choice made since stays.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chainedFromId]);

  const reasons: string[] = [];
  if (user && !user.can_run_pipelines) reasons.push('Your account may not run pipelines: ask an administrator.');
  if (version.can_run === false) reasons.push(version.reason ?? 'This version cannot run on this installation.');
  if (!name.trim()) reasons.push('Give the execution a name.');
  const min = version.requirements?.min_samples ?? 1;
  if (!chained && selected.length < min) reasons.push(`Select at least ${min} sample${min === 1 ? '' : 's'}.`);
  for (const id of selected) {
    const s = knownSamples[id];
    const problem = serviceSamples[id] ?? (s ? sampleProblem(s, version.requirements) : null);
    if (problem) reasons.push(`Sample ${s?.name ?? id}: ${problem}.`);
  }
  const labelOf = (n: string) => {
    const p = params.find((x) => x.name === n);
    return p ? parameterLabel(p) : n;
  };
  for (const m of check.missing) reasons.push(`Fill in the required parameter ${labelOf(m)}.`);
  for (const [n, m] of Object.entries(check.invalid)) reasons.push(`Parameter ${labelOf(n)} ${readable(m)}.`);

  const messageFor = (p: PipelineParameter): string | null => {
    if (serviceFields[p.name]) return readable(serviceFields[p.name]!);
    if (!touched[p.name]) return null;
    if (check.missing.includes(p.name)) return 'is required';
    const invalid = check.invalid[p.name];
    return invalid ? readable(invalid) : null;
  };

  const launch = async () => {
    setBusy(true);
    setError(null);
    setServiceFields({});
    setServiceSamples({});
    setSampleNotes([]);
    try {
      const body: RunBody = {
        name,
        // Chained without a choice: the service takes the upstream execution's samples.
        ...(chained && selected.length === 0 ? {} : { samples: selected }),
        parameters: given,
        version: version.version,
        ...optionsBody(effective),
      };
      const execution = rerunOf
        ? await client.call(postExecutionsByIdRerun, { params: { id: rerunOf.id }, body: rerunBody(body) })
        : await client.call(postPipelinesVersionsByIdRun, { params: { id: version.id }, body });
      pushToast({
        tone: 'ok',
        message: rerunOf ? `Re-running ${rerunOf.name} as ${execution.name}` : `Execution ${execution.name} started`,
      });
      navigate('executions', { id: execution.id });
    } catch (err) {
      setError(err);
      if (err instanceof ServiceError) {
        // Both may come at once: the missing ones and the invalid ones, each on its field.
        setServiceFields({
          ...Object.fromEntries((err.missingParams ?? []).map((m) => [m, 'is required'])),
          ...err.fields,
        });
        const list = err.invalidSamples;
        if (list) {
          setServiceSamples(
            Object.fromEntries(list.filter((x) => x.sample_id !== null).map((x) => [x.sample_id, x.reason])),
          );
          // Reasons about the selection as a whole (too few samples) have no row to sit on.
          setSampleNotes(
            list.map((x) =>
              x.sample_id === null ? x.reason : `Sample ${knownSamples[x.sample_id]?.name ?? x.sample_id}: ${x.reason}`,
            ),
          );
        }
      }
      setFocusProblem((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      className="launch-form"
      aria-label={`Launch ${pipeline.name} ${version.version}`}
      data-testid="launch-form"
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(Object.fromEntries(params.map((p) => [p.name, true])));
        if (reasons.length === 0) void launch();
      }}
    >
      {rerunOf && (
        <p className="notice" data-testid="rerun-note">
          Re-running <strong>{rerunOf.name}</strong> (#{rerunOf.id}): its samples, parameters and resources are filled
          in. Change what you need, or launch it as it is.
        </p>
      )}
      <label className="field">
        <span>Execution name</span>
        <input required value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <div className="split">
        <fieldset className="card">
          <legend>Parameters</legend>
          {params.length === 0 && <p className="muted">This version has no parameters.</p>}
          {params.map((p) => (
            <ParameterField
              key={p.name}
              renderFile={(f) => (
                <DataRecordPicker param={p} id={f.id} value={f.value} common={{ ...f.common }} onChange={f.onChange} />
              )}
              param={p}
              raw={raw[p.name] ?? ''}
              message={messageFor(p)}
              onChange={(v) => {
                setRaw((r) => ({ ...r, [p.name]: v }));
                setTouched((t) => ({ ...t, [p.name]: true }));
                setServiceFields((f) => ({ ...f, [p.name]: '' }));
              }}
            />
          ))}
        </fieldset>
        {takesSamples ? (
          <SamplePicker
            requirements={version.requirements}
            serviceReasons={serviceSamples}
            chainedFrom={chainedFrom}
            known={(items) => setKnownSamples((k) => ({ ...k, ...Object.fromEntries(items.map((s) => [s.id, s])) }))}
          />
        ) : (
          <p className="card muted split-note" data-testid="no-samples-note">
            This pipeline takes no samples: it runs on the files chosen under Parameters.
          </p>
        )}
      </div>
      <LaunchOptionsFields
        value={effective}
        onChange={(next) => {
          setOptions(next);
          // A changed resource no longer carries the service's complaint about its old value.
          setServiceFields((f) =>
            Object.fromEntries(
              Object.entries(f).filter(
                ([k]) => !RESOURCE_KEYS.some((r) => k === `resources.${r}` && next[r] !== options[r]),
              ),
            ),
          );
        }}
        upstreams={names.length && !rerunOf ? (upstreams.data ?? []) : null}
        fieldErrors={optionErrors(serviceFields)}
      />
      <ErrorNotice error={error} />
      {sampleNotes.length > 0 && (
        <ul className="launch-reasons" data-testid="service-sample-reasons">
          {sampleNotes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <div className="launch-bar">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={busy || reasons.length > 0}
          aria-describedby="launch-reasons"
          data-testid="launch"
        >
          {busy ? 'Launching…' : 'Launch'}
        </button>
        <ul id="launch-reasons" className="launch-reasons" data-testid="launch-reasons" aria-live="polite">
          {reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      </div>
    </form>
  );
}
