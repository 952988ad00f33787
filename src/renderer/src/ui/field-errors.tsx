/**
 * The service's reasons on the fields they name. A VALIDATION_ERROR carries
 * `fields: {password: "must NOT have fewer than 8 characters", "emails.1": ...}` (from the
 * service or, through the desktop core, as the error's details); forms show each on its input,
 * mark it invalid and move focus to the first, instead of "Correct the highlighted fields" with
 * nothing highlighted (issue 16 item 6).
 */
import { useEffect, type RefObject } from 'react';
import { ServiceError } from '../../../shared/service-client/service-error';

export type FieldErrors = Record<string, string>;

/** Ajv's wording, said as a person would. */
export function humanize(message: string): string {
  const m = message.trim();
  let x: RegExpMatchArray | null;
  if ((x = m.match(/^must NOT have fewer than (\d+) characters?$/))) return `must be at least ${x[1]} characters long`;
  if ((x = m.match(/^must NOT have more than (\d+) characters?$/))) return `must be at most ${x[1]} characters long`;
  if (/^must match format "email"$/.test(m)) return 'is not an e-mail address (name@example.org)';
  if (/^must match format "uri"$/.test(m)) return 'is not a web address (https://…)';
  if (m === 'must be string') return 'is required';
  // Schemas write the e-mail and username rules as patterns; say them instead.
  if (/^must match pattern ".*@.*"$/.test(m)) return 'is not an e-mail address (name@example.org)';
  if (/^must match pattern "\^\[A-Za-z0-9\]/.test(m)) return 'may hold letters, digits, dot, dash and underscore';
  return m;
}

/** The `fields` of an error (service or desktop core), humanized; empty for anything else. */
export function fieldErrorsOf(err: unknown): FieldErrors {
  if (!err || typeof err !== 'object') return {};
  const raw =
    err instanceof ServiceError
      ? err.fields
      : ((err as { details?: { fields?: unknown } }).details?.fields ?? (err as { fields?: unknown }).fields);
  if (!raw || typeof raw !== 'object') return {};
  return Object.fromEntries(Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, humanize(String(v))]));
}

/**
 * The reason for one form field: its own key, or a key inside it (`emails.1` for `emails`);
 * several are joined.
 */
export function reasonFor(errors: FieldErrors, field: string): string | null {
  const hits = Object.entries(errors).filter(([k]) => k === field || k.startsWith(`${field}.`));
  if (hits.length === 0) return null;
  return [...new Set(hits.map(([, v]) => v))].join('; ');
}

/** Moves focus to the first invalid control of `form` whenever `errors` changes to non-empty. */
export function useFocusFirstInvalid(form: RefObject<HTMLElement | null>, errors: FieldErrors): void {
  const key = Object.keys(errors).join('|');
  useEffect(() => {
    if (!key) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [key, form]);
}

/** A labelled input with the service's reason under it, linked for assistive tech. */
export function FieldMessage({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <span className="field-message" id={id} data-testid={`${id}`}>
      {message}
    </span>
  );
}
