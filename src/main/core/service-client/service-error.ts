/**
 * Turns what the service (or the network) answered into DesktopErrorData: the service's own
 * code and message when it sent an error body, NETWORK when no answer came; retryable for
 * network faults, 5xx and 429, never for a 4xx the same request would get again.
 */
import { isServiceErrorBody, type DesktopErrorData } from '../../../shared/errors';

/** A failed service call, carrying its data form and the HTTP status (null: no answer). */
export class ServiceCallError extends Error {
  constructor(
    readonly data: DesktopErrorData,
    readonly status: number | null,
  ) {
    super(data.message);
    this.name = 'ServiceCallError';
  }
}

/** The error data of an HTTP answer that was not a success. */
export function errorFromResponse(status: number, body: unknown): DesktopErrorData {
  const retryable = status >= 500 || status === 429 || status === 408;
  if (isServiceErrorBody(body)) {
    const { error, code, status: _status, ...extras } = body;
    return { code, message: error, retryable, ...(Object.keys(extras).length ? { details: extras } : {}) };
  }
  const text = typeof body === 'string' && body.trim() ? `: ${body.trim().slice(0, 200)}` : '';
  return {
    code: status >= 500 ? 'SERVICE_UNAVAILABLE' : 'BAD_REQUEST',
    message: `The service answered HTTP ${status}${text}`,
    retryable,
  };
}

/** The error data of a request that got no answer (refused, reset, timed out). */
export function errorFromNetwork(err: unknown): DesktopErrorData {
  const e = err as { code?: string; message?: string };
  const why = e?.code ? `${e.code}` : (e?.message ?? String(err));
  return { code: 'NETWORK', message: `The service could not be reached (${why})`, retryable: true };
}

/** True when an error is a network fault (no HTTP answer at all). */
export function isNetworkError(err: unknown): boolean {
  return err instanceof ServiceCallError && err.status === null;
}

/**
 * The service's whole reason in one sentence: its message, then every field it named
 * (VALIDATION_ERROR's `fields`), so that "Invalid request" never stands alone.
 */
export function serviceReason(data: DesktopErrorData): string {
  const fields = (data.details as { fields?: Record<string, unknown> } | undefined)?.fields;
  if (!fields || typeof fields !== 'object') return data.message;
  // Fields whose reason the message already says are not repeated.
  const parts = Object.entries(fields)
    .filter(([, v]) => !data.message.includes(String(v)))
    .map(([k, v]) => `${k}: ${String(v)}`);
  return parts.length ? `${data.message} (${parts.join('; ')})` : data.message;
}
