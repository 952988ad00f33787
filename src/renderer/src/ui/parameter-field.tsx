/**
 * One pipeline parameter as a form control chosen by its type, with its default, required
 * mark, choices, bounds and the validation message (ours, live, or the service's) on it.
 */
import type { ReactNode } from 'react';
import type { PipelineParameter } from '../../../shared/pipelines/parameters';

/** Raw control state: text for typed inputs, boolean for checkboxes. */
export type RawValue = string | boolean;

/** The control's initial raw value from the parameter's default. */
export function initialRaw(p: PipelineParameter): RawValue {
  if (p.type === 'boolean') return p.default === true;
  if (p.default === undefined || p.default === null) return '';
  if (p.type === 'array' && Array.isArray(p.default)) return p.default.join('\n');
  return String(p.default);
}

function toNumber(text: string): number | string {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : text;
}

/** Converts raw control state to the value sent to the service (undefined for blank). */
export function toValue(p: PipelineParameter, raw: RawValue): unknown {
  if (p.type === 'boolean') return raw === true;
  const text = String(raw);
  if (text.trim() === '') return undefined;
  switch (p.type) {
    case 'integer':
    case 'float':
    case 'file':
      return toNumber(text);
    case 'choice': {
      const numeric = (p.choices ?? []).find((c) => String(c) === text);
      return numeric ?? text;
    }
    case 'array': {
      const items = text
        .split(/\n|,/)
        .map((x) => x.trim())
        .filter(Boolean);
      return p.items === 'integer' || p.items === 'float' ? items.map(toNumber) : items;
    }
    default:
      return text;
  }
}

function describeBounds(p: PipelineParameter): string | null {
  const what = p.type === 'array' ? 'items' : p.type === 'string' ? 'characters' : '';
  if (p.min !== undefined && p.max !== undefined) return `${p.min} to ${p.max} ${what}`.trim();
  if (p.min !== undefined) return `at least ${p.min} ${what}`.trim();
  if (p.max !== undefined) return `at most ${p.max} ${what}`.trim();
  return null;
}

export interface ParameterFieldProps {
  param: PipelineParameter;
  raw: RawValue;
  message: string | null;
  onChange(raw: RawValue): void;
  /** Prefix of the control's id where one page holds several forms (watched folders). */
  idPrefix?: string;
  /**
   * The control of a `file` parameter (the launch form's data record picker); without it, the
   * data record's id as a number.
   */
  renderFile?(props: { id: string; value: string; common: FieldCommon; onChange(raw: RawValue): void }): ReactNode;
}

/** The attributes every control of a parameter carries. */
export interface FieldCommon {
  id: string;
  name: string;
  'aria-describedby': string;
  'aria-invalid': true | undefined;
  'aria-required': true | undefined;
}

/**
 * The label a person reads: the manifest's `label` when it has one, else the parameter's name
 * said in words (`quality_cutoff` is "Quality cutoff", `min_length` "Minimum length").
 */
export function parameterLabel(p: PipelineParameter & { label?: unknown }): string {
  if (typeof p.label === 'string' && p.label.trim()) return p.label;
  const words = p.name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => WORDS[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const WORDS: Record<string, string> = {
  min: 'minimum',
  max: 'maximum',
  qc: 'QC',
  umi: 'UMI',
  gc: 'GC',
  id: 'ID',
  cpus: 'CPUs',
  adapter2: 'adapter (read 2)',
};

/** Renders the control with its label, help and message. */
export function ParameterField({ param: p, raw, message, onChange, idPrefix = '', renderFile }: ParameterFieldProps) {
  const id = `${idPrefix}param-${p.name}`;
  const label = parameterLabel(p);
  const helpId = `${id}-help`;
  const msgId = `${id}-msg`;
  const described = [helpId, message ? msgId : null].filter(Boolean).join(' ');
  const common: FieldCommon = {
    id,
    name: p.name,
    'aria-describedby': described,
    'aria-invalid': message ? true : undefined,
    'aria-required': p.required ? true : undefined,
  };
  const bounds = describeBounds(p);
  let control;
  switch (p.type) {
    case 'boolean':
      control = (
        <input type="checkbox" {...common} checked={raw === true} onChange={(e) => onChange(e.target.checked)} />
      );
      break;
    case 'choice':
      control = (
        <select {...common} value={String(raw)} onChange={(e) => onChange(e.target.value)}>
          {!p.required || raw === '' ? <option value="">—</option> : null}
          {(p.choices ?? []).map((c) => (
            <option key={String(c)} value={String(c)}>
              {String(c)}
            </option>
          ))}
        </select>
      );
      break;
    case 'integer':
    case 'float':
      control = (
        <input
          type="number"
          {...common}
          step={p.type === 'integer' ? 1 : 'any'}
          min={p.min}
          max={p.max}
          value={String(raw)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'file':
      control = renderFile ? (
        renderFile({ id, value: String(raw), common, onChange })
      ) : (
        <input
          type="number"
          {...common}
          min={1}
          step={1}
          placeholder="file id"
          value={String(raw)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'array':
      control = <textarea {...common} rows={3} value={String(raw)} onChange={(e) => onChange(e.target.value)} />;
      break;
    default:
      control = <input type="text" {...common} value={String(raw)} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <div className={`field${message ? ' field-invalid' : ''}`} data-testid={id}>
      <label htmlFor={id}>
        <span>
          {label}
          {p.required && (
            <span className="required-mark" aria-hidden="true">
              {' '}
              *
            </span>
          )}
        </span>
      </label>
      {control}
      <span id={helpId} className="field-help">
        {p.description && !/[.!?]$/.test(p.description) ? `${p.description}.` : p.description}
        {p.required ? ' Required.' : ''}
        {p.type === 'array' ? ' One value per line.' : ''}
        {p.type === 'file'
          ? p.data_types?.length
            ? ` One of your ${p.data_types.map((t) => t.toUpperCase()).join(' or ')} files; upload one here if it is not listed.`
            : ' One of your data files.'
          : ''}
        {bounds ? ` Allowed: ${bounds}.` : ''}
        {p.default !== undefined && p.default !== null && p.type !== 'boolean' ? ` Default: ${String(p.default)}.` : ''}
      </span>
      {message && (
        <span id={msgId} className="field-message" role="alert">
          {label} {message}
        </span>
      )}
    </div>
  );
}
