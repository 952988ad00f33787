/**
 * Pipeline parameters: their declared types and the one set of rules that checks a run's
 * parameter values. Pure, so that the service's run command and the renderer's launch form
 * apply exactly the same rules.
 */

import type { PipelineParameter } from '../service-api/pipelines';

// The one schema of a parameter is the service API's (src/shared/service-api/pipelines.ts); this
// module stays free of the schema library, so the renderer's bundle does not carry it.
export type { PipelineParameter } from '../service-api/pipelines';

/** The types a pipeline parameter may declare. */
export const PARAMETER_TYPES = ['string', 'integer', 'float', 'boolean', 'choice', 'file', 'array'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export interface ParameterCheck {
  /** Required parameters with neither a value nor a default. */
  missing: string[];
  /** Per-parameter messages for values of the wrong type, choice, bound or pattern. */
  invalid: Record<string, string>;
  /** The values to run with: given values, then defaults for the rest. */
  values: Record<string, unknown>;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function checkPattern(pattern: string | undefined, text: string): string | null {
  if (!pattern) return null;
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`);
  } catch {
    return null;
  }
  return re.test(text) ? null : `must match ${pattern}`;
}

function checkBounds(p: PipelineParameter, n: number, what: string): string | null {
  if (p.min !== undefined && n < p.min) return `${what} must be at least ${p.min}`;
  if (p.max !== undefined && n > p.max) return `${what} must be at most ${p.max}`;
  return null;
}

function checkItem(p: PipelineParameter, item: unknown, index: number): string | null {
  const kind = p.items ?? 'string';
  const at = `item ${index + 1}`;
  if (kind === 'string') {
    if (typeof item !== 'string') return `${at} must be a string`;
    const bad = checkPattern(p.validation, item);
    return bad ? `${at} ${bad}` : null;
  }
  if (typeof item !== 'number' || !Number.isFinite(item)) return `${at} must be a number`;
  if (kind === 'integer' && !Number.isInteger(item)) return `${at} must be a whole number`;
  return null;
}

/** Checks one value against its parameter; null when valid, else a message for the user. */
export function checkParameterValue(p: PipelineParameter, value: unknown): string | null {
  switch (p.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      const bad = checkPattern(p.validation, value);
      if (bad) return bad;
      if (p.min !== undefined && value.length < p.min) return `must be at least ${p.min} characters`;
      if (p.max !== undefined && value.length > p.max) return `must be at most ${p.max} characters`;
      return null;
    }
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be a whole number';
      return checkBounds(p, value, 'value');
    case 'float':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      return checkBounds(p, value, 'value');
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'choice':
      if (typeof value !== 'string' && typeof value !== 'number') return 'must be one of the choices';
      return (p.choices ?? []).includes(value) ? null : `must be one of: ${(p.choices ?? []).join(', ')}`;
    case 'file':
      // A file is a reference to a data record the caller can see; the service checks that part.
      return typeof value === 'number' && Number.isInteger(value) && value > 0 ? null : 'must be a data record id';
    case 'array': {
      if (!Array.isArray(value)) return 'must be a list';
      const bounds = checkBounds(p, value.length, 'number of items');
      if (bounds) return bounds;
      for (let i = 0; i < value.length; i++) {
        const bad = checkItem(p, value[i], i);
        if (bad) return bad;
      }
      return null;
    }
  }
}

/**
 * Checks a run's parameter values against the version's parameters: missing required ones
 * first (the service answers MISSING_PARAMETERS before INVALID_PARAMETERS), unknown names and
 * bad values after. Defaults fill the rest.
 */
export function checkParameters(
  declared: readonly PipelineParameter[],
  given: Record<string, unknown>,
): ParameterCheck {
  const missing: string[] = [];
  const invalid: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const known = new Set(declared.map((p) => p.name));
  for (const p of declared) {
    const value = given[p.name];
    if (isBlank(value)) {
      if (p.default !== undefined && p.default !== null) values[p.name] = p.default;
      else if (p.required) missing.push(p.name);
      continue;
    }
    const bad = checkParameterValue(p, value);
    if (bad) invalid[p.name] = bad;
    else values[p.name] = value;
  }
  for (const name of Object.keys(given)) {
    if (!known.has(name)) invalid[name] = 'is not a parameter of this pipeline version';
  }
  return { missing, invalid, values };
}
