/** Priority, resources, test mode and the upstream execution to chain from. */
import type { RunBody } from '../../../../shared/service-api/pipelines';
import type { Execution } from '../../service-client/types';
import { NotOffered, useServiceOffers } from '../../ui/service-offers';

export interface LaunchOptions {
  priority: 'high' | 'normal' | 'low';
  cpus: string;
  memory: string;
  queue: string;
  time_limit: string;
  test_mode: boolean;
  upstream: string;
}

export const DEFAULT_OPTIONS: LaunchOptions = {
  priority: 'normal',
  cpus: '',
  memory: '',
  queue: '',
  time_limit: '',
  test_mode: false,
  upstream: '',
};

/** The run body's extra fields from the options (blank resources are left out). */
export function optionsBody(o: LaunchOptions): RunBody {
  const resources: NonNullable<RunBody['resources']> = {};
  if (o.cpus) resources.cpus = Number(o.cpus);
  if (o.memory) resources.memory = o.memory;
  if (o.queue) resources.queue = o.queue;
  if (o.time_limit) resources.time_limit = o.time_limit;
  const body: RunBody = { priority: o.priority, test_mode: o.test_mode };
  if (Object.keys(resources).length) body.resources = resources;
  if (o.upstream) body.upstream_execution = Number(o.upstream);
  return body;
}

/** Renders the options; `upstreams` are completed executions of the version's upstream pipelines. */
export function LaunchOptionsFields(props: {
  value: LaunchOptions;
  upstreams: Execution[] | null;
  fieldErrors: Record<string, string>;
  onChange(o: LaunchOptions): void;
}) {
  const { value: o, onChange, upstreams, fieldErrors } = props;
  // A server whose run takes none of these (a Flow server) says so instead of dropping them.
  if (!useServiceOffers().runOptions)
    return (
      <fieldset className="card">
        <legend>Run options</legend>
        <NotOffered what="Priority, resources, test mode and chaining" />
      </fieldset>
    );
  const set = (patch: Partial<LaunchOptions>) => onChange({ ...o, ...patch });
  const text = (key: 'cpus' | 'memory' | 'queue' | 'time_limit', label: string, placeholder: string) => (
    <label className={`field${fieldErrors[key] ? ' field-invalid' : ''}`}>
      <span>{label}</span>
      <input
        type={key === 'cpus' ? 'number' : 'text'}
        min={key === 'cpus' ? 1 : undefined}
        placeholder={placeholder}
        aria-invalid={fieldErrors[key] ? true : undefined}
        value={o[key]}
        onChange={(e) => set({ [key]: e.target.value })}
      />
      {fieldErrors[key] && <span className="field-message">{fieldErrors[key]}</span>}
    </label>
  );
  return (
    <fieldset className="card">
      <legend>Run options</legend>
      <div className="inline-form">
        <label className="field">
          <span>Priority</span>
          <select value={o.priority} onChange={(e) => set({ priority: e.target.value as LaunchOptions['priority'] })}>
            <option value="high">high</option>
            <option value="normal">normal</option>
            <option value="low">low</option>
          </select>
        </label>
        {text('cpus', 'CPUs', 'default')}
        {text('memory', 'Memory', 'e.g. 8GB')}
        {text('queue', 'Queue', 'default')}
        {text('time_limit', 'Time limit', 'e.g. 2h')}
      </div>
      <label className="check">
        <input type="checkbox" checked={o.test_mode} onChange={(e) => set({ test_mode: e.target.checked })} /> Test mode
        (a quick run on a small part of the data)
      </label>
      {upstreams !== null && (
        <label className={`field${fieldErrors.upstream_execution ? ' field-invalid' : ''}`}>
          <span>Chain from a completed execution</span>
          <select value={o.upstream} onChange={(e) => set({ upstream: e.target.value })}>
            <option value="">None: start from the samples</option>
            {upstreams.map((x) => (
              <option key={x.id} value={String(x.id)}>
                #{x.id} {x.name} ({x.pipeline?.name})
              </option>
            ))}
          </select>
          {upstreams.length === 0 && (
            <span className="field-help">No completed execution of an upstream pipeline yet.</span>
          )}
          {fieldErrors.upstream_execution && <span className="field-message">{fieldErrors.upstream_execution}</span>}
        </label>
      )}
    </fieldset>
  );
}
