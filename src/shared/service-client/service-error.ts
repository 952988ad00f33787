/**
 * The one error of a service call, for the desktop core, the CLI and the renderer alike: the
 * service's `{error, code, status}` body (with its per-code extras such as `fields`, `rows` or
 * `data_id`), an answer that is not such a body (a proxy's page), or no answer at all (status
 * null: refused, reset, timed out, offline). `retryable` is what the upload queue decides on:
 * network faults, 5xx, 429 and 408 are worth another try, a 4xx the same request would get again
 * is not.
 */
import { isServiceErrorBody, type DesktopErrorData } from '../errors';
import type { ErrorBody, InvalidSample, SheetIssue } from '../service-api/error-body';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = <T>(v: unknown): T[] | null => (Array.isArray(v) ? (v.filter(isRecord) as T[]) : null);

export interface ServiceErrorInit {
  message: string;
  code: DesktopErrorData['code'];
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  /** The service's error body as it came (empty when there was none). */
  body?: Record<string, unknown>;
  /** Defaults from the status: no answer, 5xx, 429 and 408 are retryable. */
  retryable?: boolean;
}

function retryableStatus(status: number | null): boolean {
  return status === null || status >= 500 || status === 429 || status === 408;
}

export class ServiceError extends Error {
  readonly code: DesktopErrorData['code'];
  readonly status: number | null;
  readonly body: Record<string, unknown>;
  readonly retryable: boolean;
  constructor(init: ServiceErrorInit) {
    super(init.message);
    this.name = 'ServiceError';
    this.code = init.code;
    this.status = init.status;
    this.body = init.body ?? {};
    this.retryable = init.retryable ?? retryableStatus(init.status);
  }

  /** VALIDATION_ERROR's and INVALID_PARAMETERS' message per field, or null. */
  get fields(): NonNullable<ErrorBody['fields']> | null {
    const f = this.body.fields;
    return isRecord(f) ? Object.fromEntries(Object.entries(f).map(([k, v]) => [k, String(v)])) : null;
  }

  /** INVALID_ANNOTATION's errors of the sheet, or null. */
  get rows(): SheetIssue[] | null {
    return objects<SheetIssue>(this.body.rows);
  }

  /** ANNOTATION_WARNINGS' warnings of the sheet, or null. */
  get warnings(): SheetIssue[] | null {
    return objects<SheetIssue>(this.body.warnings);
  }

  /** DUPLICATE_FILE's data record that already holds the bytes, or null. */
  get dataId(): number | null {
    const id = this.body.data_id;
    return typeof id === 'number' && Number.isInteger(id) ? id : null;
  }

  /** INVALID_SAMPLES' samples and reasons, or null. */
  get invalidSamples(): InvalidSample[] | null {
    return objects<InvalidSample>(this.body.invalid_samples);
  }

  /** MISSING_PARAMETERS' names, or null. */
  get missingParams(): string[] | null {
    const m = this.body.missing_params;
    return Array.isArray(m) ? m.map(String) : null;
  }

  /** True when the request never got an answer (offline, service stopped, timed out). */
  get network(): boolean {
    return this.status === null;
  }

  /** The error as it crosses the desktop API: the body's extras go in `details`. */
  get data(): DesktopErrorData {
    const { error: _error, code: _code, status: _status, ...extras } = this.body;
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(Object.keys(extras).length ? { details: extras } : {}),
    };
  }
}

/** The error of an HTTP answer that was not a success; `body` is the parsed JSON or the text. */
export function errorFromResponse(status: number, body: unknown): ServiceError {
  if (isServiceErrorBody(body)) return new ServiceError({ message: body.error, code: body.code, status, body });
  const text = typeof body === 'string' && body.trim() ? `: ${body.trim().slice(0, 200)}` : '';
  return new ServiceError({
    message: `The service answered HTTP ${status}${text}`,
    code: status >= 500 ? 'SERVICE_UNAVAILABLE' : 'BAD_REQUEST',
    status,
  });
}

/** The error of a request that got no answer; Node's fetch puts the socket's code in `cause`. */
export function errorFromNetwork(err: unknown, baseUrl: string): ServiceError {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | null;
  const why = e?.cause?.code ?? e?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new ServiceError({
    message: `The service at ${baseUrl} could not be reached (${String(why)})`,
    code: 'NETWORK',
    status: null,
  });
}

/** True when an error is a network fault (no HTTP answer at all). */
export function isNetworkError(err: unknown): boolean {
  return err instanceof ServiceError && err.network;
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
