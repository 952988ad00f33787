/**
 * Sample metadata: flat key/value pairs checked against the vocabularies. Organism and
 * Category are required (the template marks them so) and stored under `organism` and
 * `category` in the vocabulary's own spelling; other keys are kept as given.
 */
import { errors } from '../http/api-error';
import { canonical, type Vocabularies } from '../vocabularies/vocabularies';

export type Metadata = Record<string, string | number | boolean | null>;

const MAX_KEYS = 100;
const MAX_KEY = 100;
const MAX_VALUE = 2000;

/** Checks and normalises metadata; throws VALIDATION_ERROR with `metadata.<key>` fields. */
export function checkMetadata(input: unknown, vocab: Vocabularies): Metadata {
  const fields: Record<string, string> = {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw errors.validation({ metadata: 'must be an object of key/value pairs' });
  }
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > MAX_KEYS) throw errors.validation({ metadata: `at most ${MAX_KEYS} keys` });
  const out: Metadata = {};
  for (const [rawKey, value] of entries) {
    const key = rawKey.trim();
    const lower = key.toLowerCase();
    const name = lower === 'organism' || lower === 'category' ? lower : key;
    if (!key || key.length > MAX_KEY) {
      fields[`metadata.${rawKey}`] = `keys have 1-${MAX_KEY} characters`;
      continue;
    }
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) {
      fields[`metadata.${key}`] = 'must be text, a number, true/false or null';
      continue;
    }
    if (typeof value === 'string' && value.length > MAX_VALUE) {
      fields[`metadata.${key}`] = `at most ${MAX_VALUE} characters`;
      continue;
    }
    out[name] = typeof value === 'string' ? value.trim() : (value as number | boolean | null);
  }
  const vocabularyField = (key: 'organism' | 'category', list: ReadonlyArray<{ name: string }>) => {
    const value = out[key];
    if (value === undefined || value === null || value === '') {
      fields[`metadata.${key}`] = 'required';
      return;
    }
    const known = canonical(list, String(value));
    if (!known) {
      const hint = list
        .slice(0, 6)
        .map((x) => x.name)
        .join(', ');
      fields[`metadata.${key}`] =
        `"${String(value)}" is not in the vocabulary (${hint}, …; see /api/${key === 'organism' ? 'organisms' : 'categories'})`;
      return;
    }
    out[key] = known;
  };
  vocabularyField('organism', vocab.organisms);
  vocabularyField('category', vocab.categories);
  if (Object.keys(fields).length) throw errors.validation(fields, 'Invalid sample metadata');
  return out;
}
