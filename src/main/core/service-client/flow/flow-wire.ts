/**
 * Flow's wire as the desktop core speaks it (FLOW-WIRE.md §1): requests to the base URL B
 * (`https://app.flow.bio/api`, or a Laneway service's `/flow/api`), `Authorization: Bearer`,
 * one refresh and re-send after a 401, and Flow's error bodies turned into the service
 * errors the rest of the core handles (`{"error": message | {field: [messages]}}`,
 * annotation verdicts without `error`, downloads' empty 404s). Flow's shapes stay here and in
 * the adapter; none of them is the `/api` contract's.
 */
import { Agent, fetch, Headers } from 'undici';
import type { ServiceErrorCode } from '../../../../shared/errors';
import { errorFromNetwork, ServiceError } from '../../../../shared/service-client/service-error';
import type { TokenSource } from '../service-client';

export interface FlowAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  /** The raw bytes, for downloads. */
  bytes: Buffer;
}

export interface FlowRequest {
  json?: unknown;
  form?: { contentType: string; body: Buffer };
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Without the Bearer token (sign-in, refresh). */
  anonymous?: boolean;
}

const CODES: Record<number, ServiceErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  507: 'INSUFFICIENT_STORAGE',
};

/** Flow's message of an error body (§1.2): `error` as text, a field object, or the whole body. */
export function flowMessage(status: number, body: unknown): string {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    const e = 'error' in b ? b.error : b;
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object')
      return Object.entries(e as Record<string, unknown>)
        .map(
          ([k, v]) =>
            `${k}: ${Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('; ') : JSON.stringify(v)}`,
        )
        .join('; ');
  }
  if (typeof body === 'string' && body.trim()) return `HTTP ${status}: ${body.trim().slice(0, 200)}`;
  return `HTTP ${status}`;
}

/** A Laneway error body for a Flow error answer, so that the core's handling applies as is. */
export function laneBody(status: number, body: unknown, code?: ServiceErrorCode): Record<string, unknown> {
  const extras = body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as object) } : {};
  const c = code ?? CODES[status] ?? (status >= 500 ? 'INTERNAL' : 'VALIDATION_ERROR');
  return { ...extras, error: flowMessage(status, body), code: c, status };
}

export class FlowWire {
  readonly base: string;
  private readonly agent: Agent;

  constructor(
    baseUrl: string,
    private readonly auth: TokenSource | null,
    timeoutMs = 60_000,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
    this.agent = new Agent({
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
      connect: { timeout: 10_000 },
    });
  }

  /** Sends with the access token, once more with a fresher one after a 401; any status. */
  async send(method: string, path: string, req: FlowRequest = {}): Promise<FlowAnswer> {
    const auth = req.anonymous ? null : this.auth;
    const token = auth ? await auth.token() : null;
    const first = await this.once(method, path, req, token);
    if (first.status !== 401 || !auth || !token) return first;
    auth.invalidate(token);
    return this.once(method, path, req, await auth.token());
  }

  /** The parsed body of a 2xx answer; throws a ServiceError with Flow's message otherwise. */
  async call<T>(method: string, path: string, req: FlowRequest = {}): Promise<T> {
    const res = await this.send(method, path, req);
    if (res.status >= 200 && res.status < 300) return res.body as T;
    throw flowError(res.status, res.body);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async once(method: string, path: string, req: FlowRequest, token: string | null): Promise<FlowAnswer> {
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | Buffer | undefined;
    if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    } else if (req.form) {
      headers['content-type'] = req.form.contentType;
      body = req.form.body;
    }
    let res: Awaited<ReturnType<typeof fetch>>;
    try {
      res = await fetch(`${this.base}${path}`, { method, headers, body, signal: req.signal, dispatcher: this.agent });
    } catch (err) {
      if ((err as { name?: unknown } | null)?.name === 'AbortError') throw err;
      throw errorFromNetwork(err, this.base);
    }
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      throw errorFromNetwork(err, this.base);
    }
    let parsed: unknown = bytes.toString('utf8');
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(parsed as string) as unknown;
      } catch {
        /* the text stays */
      }
    }
    return { status: res.status, headers: res.headers, body: parsed, bytes };
  }
}

/** The core's error for a Flow error answer. */
export function flowError(status: number, body: unknown, code?: ServiceErrorCode): ServiceError {
  const lane = laneBody(status, body, code);
  return new ServiceError({ message: lane.error as string, code: lane.code as ServiceErrorCode, status, body: lane });
}

export { Headers };
