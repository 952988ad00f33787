/**
 * The settings of a watched folder, to add one or edit it: the folder (a native picker in
 * Electron, a path field in both modes), instrument kind, auto-upload, network share, the
 * Organism and Category every sample of its runs gets (the service requires them), and an
 * optional pipeline launched on each registered run's samples.
 */
import { useCallback, useState } from 'react';
import type { InstrumentKind, Watcher, WatcherLaunch } from '../../../../shared/desktop-api/contract';
import { missingSampleMetadata } from '../../../../shared/desktop-api/sample-metadata';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import { useQuery } from '../../ui/use-query';
import { MetadataChoosers, useVocabularies } from '../../ui/metadata-choosers';
import { LaunchParameters, type LaunchParameterState } from './launch-parameters';
import { getPipelines } from '../../../../shared/service-api/endpoints';

const KINDS: Array<{ value: InstrumentKind; label: string }> = [
  { value: 'illumina', label: 'Illumina (waits for RTAComplete and the FASTQ files)' },
  { value: 'nanopore', label: 'Oxford Nanopore (waits for the final summary)' },
  { value: 'element', label: 'Element AVITI (waits for RunUploaded.json)' },
  { value: 'generic', label: 'Other, MGI (ready when nothing changed for a while)' },
];

export interface WatcherSettings {
  path: string;
  kind: InstrumentKind;
  auto_upload: boolean;
  polling: boolean;
  sample_metadata: Record<string, unknown>;
  launch: WatcherLaunch | null;
}

/** The form's starting values: a new folder, or an existing watcher's settings. */
export function settingsOf(w?: Watcher): WatcherSettings {
  return w
    ? {
        path: w.path,
        kind: w.kind,
        auto_upload: w.auto_upload,
        polling: w.polling,
        sample_metadata: w.sample_metadata,
        launch: w.launch,
      }
    : { path: '', kind: 'illumina', auto_upload: true, polling: false, sample_metadata: {}, launch: null };
}

/** Renders the form; `editing` fixes the path (a watcher's folder does not change). */
export function WatcherForm({
  initial,
  editing = false,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: WatcherSettings;
  editing?: boolean;
  submitLabel: string;
  onSubmit(settings: WatcherSettings): Promise<boolean>;
  onCancel?(): void;
}) {
  const { api, client } = useServices();
  const shell = useAppStore((s) => s.appInfo?.shell);
  const vocab = useVocabularies();
  const pipelines = useQuery(() => client.call(getPipelines), 'pipelines');
  const [form, setForm] = useState(initial);
  const [params, setParams] = useState<LaunchParameterState>({
    values: initial.launch?.parameters ?? {},
    problems: {},
  });
  const [showProblems, setShowProblems] = useState(false);
  const onParams = useCallback((state: LaunchParameterState) => setParams(state), []);
  const [pickError, setPickError] = useState<string | null>(null);
  const missing = missingSampleMetadata(form.sample_metadata);
  const idBase = editing ? `watcher-edit-${initial.path}` : 'watcher-new';

  const pick = async () => {
    setPickError(null);
    try {
      const picked = await api.watchers.pickFolder();
      if (picked.path) setForm({ ...form, path: picked.path });
    } catch (err) {
      setPickError((err as Error).message);
    }
  };
  const submit = async () => {
    let launch: WatcherLaunch | null = null;
    if (form.launch?.pipeline) {
      if (Object.keys(params.problems).length) {
        setShowProblems(true);
        return;
      }
      launch = { pipeline: form.launch.pipeline, parameters: params.values };
    }
    if ((await onSubmit({ ...form, launch })) && !editing) {
      setForm(settingsOf());
      setParams({ values: {}, problems: {} });
      setShowProblems(false);
    }
  };

  return (
    <form
      className="card"
      aria-label={editing ? `Settings of ${initial.path}` : 'Watch a folder'}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="inline-form">
        {!editing && (
          <label className="field">
            <span>Folder path</span>
            <input
              required
              value={form.path}
              onChange={(e) => setForm({ ...form, path: e.target.value })}
              data-testid="watcher-path"
            />
          </label>
        )}
        {!editing && shell === 'electron' && (
          <button type="button" className="btn" onClick={() => void pick()}>
            Choose folder…
          </button>
        )}
        <label className="field">
          <span>Instrument</span>
          <select value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as InstrumentKind })}>
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {pickError && (
        <p className="field-message" role="alert">
          {pickError}
        </p>
      )}
      <MetadataChoosers
        vocab={vocab}
        value={form.sample_metadata}
        onChange={(sample_metadata) => setForm({ ...form, sample_metadata })}
        about="every sample"
      />
      {missing.length > 0 && (
        <p className="field-message" id={`${idBase}-missing`} data-testid="watcher-missing-metadata">
          Without {missing.join(' and ')} the runs of this folder cannot become samples (the service requires them).
        </p>
      )}
      <div className="inline-form">
        <label className="field">
          <span>Launch on each registered run</span>
          <select
            value={form.launch?.pipeline ?? ''}
            onChange={(e) =>
              setForm({ ...form, launch: e.target.value ? { pipeline: e.target.value, parameters: {} } : null })
            }
          >
            <option value="">No pipeline</option>
            {(pipelines.data ?? []).map((p) => (
              <option key={p.id} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {form.launch && (
        <LaunchParameters
          key={form.launch.pipeline}
          pipeline={form.launch.pipeline}
          initial={initial.launch?.pipeline === form.launch.pipeline ? initial.launch.parameters : {}}
          idPrefix={`${idBase}-`}
          showProblems={showProblems}
          onChange={onParams}
        />
      )}
      <label>
        <input
          type="checkbox"
          checked={form.auto_upload}
          onChange={(e) => setForm({ ...form, auto_upload: e.target.checked })}
        />{' '}
        Upload finished runs automatically
      </label>{' '}
      <label>
        <input
          type="checkbox"
          checked={form.polling}
          onChange={(e) => setForm({ ...form, polling: e.target.checked })}
        />{' '}
        Network share (poll instead of file events)
      </label>{' '}
      <button type="submit" className="btn btn-primary">
        {submitLabel}
      </button>
      {onCancel && (
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}
