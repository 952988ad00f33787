/**
 * The one client of the service API, on fetch: the desktop core and the CLI (Node, through
 * undici's fetch with its timeouts) and the renderer (the browser's fetch) each pass their own
 * fetch and token source to it. It adds the Bearer access token, re-sends once with a fresher
 * token after a 401, and turns every failure into a ServiceError: the service's error body, or
 * no answer at all (status null).
 *
 * Shared code has neither DOM nor Node types, so the platform's body, signal and response
 * types are parameters (`B`, `S`, `R`) and only what this module reads of a response is named.
 */
import { pathOf, type CallRest, type Endpoint, type ResponseOf } from '../service-api/endpoint';
import { errorFromNetwork, errorFromResponse, ServiceError } from './service-error';

/** What the client reads of a fetch Response. */
export interface ResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface FetchInit<B, S> {
  method: string;
  headers: Record<string, string>;
  body?: string | B;
  signal?: S;
}

/** A platform's fetch, narrowed to what the client uses. */
export type FetchLike<B, S, R extends ResponseLike> = (url: string, init: FetchInit<B, S>) => Promise<R>;

/** Where access tokens come from; `stale` is a token the service refused (401): answer a fresher one. */
export interface AccessTokens {
  token(stale?: string): Promise<string | null>;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface CallOptions<B, S> {
  headers?: Record<string, string>;
  query?: Query;
  /** A JSON body. */
  json?: unknown;
  /** Raw bytes with their content-type in `headers`; a function gives a fresh body to a re-send. */
  body?: B | (() => B);
  signal?: S;
  /** Overrides the client's token source for this call; null sends without a token (sign-in, refresh). */
  auth?: AccessTokens | null;
}

/**
 * A client's options for a call through an endpoint descriptor, beside its params, query and
 * JSON body: `raw` is a body of bytes (a multipart form) with its content-type in `headers`.
 */
export interface EndpointOptions<B, S> {
  headers?: Record<string, string>;
  raw?: B | (() => B);
  signal?: S;
  auth?: AccessTokens | null;
}

/** An answer of an endpoint of any status: the descriptor's type when 2xx (`ok`), unread otherwise. */
export type EndpointAnswer<E extends Endpoint, H> =
  | { ok: true; status: number; headers: H; body: ResponseOf<E> }
  | { ok: false; status: number; headers: H; body: unknown };

/** The method, path and options of a call through a descriptor. */
export function requestOf<B, S>(
  endpoint: Endpoint,
  args: { params?: object; query?: object; body?: unknown } & EndpointOptions<B, S> = {},
): { method: string; path: string; opts: CallOptions<B, S> } {
  const { params, query, body, raw, ...rest } = args;
  const opts: CallOptions<B, S> = { ...rest };
  if (query) opts.query = query as Query;
  if (body !== undefined) opts.json = body;
  else if (raw !== undefined) opts.body = raw;
  // A POST without a body schema still sends JSON `{}`: fastify refuses an empty JSON body.
  else if (endpoint.method !== 'GET' && endpoint.method !== 'DELETE' && !endpoint.multipart) opts.json = {};
  return { method: endpoint.method, path: pathOf(endpoint, params), opts };
}

/** An answer of any status, its body parsed as JSON when it says it is JSON. */
export interface ServiceAnswer<R extends ResponseLike> {
  status: number;
  headers: R['headers'];
  body: unknown;
}

export interface ServiceHttpOptions<B, S, R extends ResponseLike> {
  /** The service origin (`http://host:port`), or null while it is not known. */
  baseUrl: string | (() => string | null);
  fetch: FetchLike<B, S, R>;
  auth?: AccessTokens | null;
  /** Told false when a request could not reach the service, true when one did. */
  onReachable?(reachable: boolean): void;
}

/** `path` (which may carry its own query) with the non-empty `query` values appended. */
export function withQuery(path: string, query?: Query): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null && v !== '')
      parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  if (!parts.length) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${parts.join('&')}`;
}

/** The body as JSON when the answer says so and parses, else the text. */
async function readBody(res: ResponseLike): Promise<unknown> {
  const text = await res.text();
  if (!text || !(res.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export class ServiceHttp<B, S, R extends ResponseLike> {
  constructor(private readonly options: ServiceHttpOptions<B, S, R>) {}

  /** The service origin without a trailing slash, or null while it is not known. */
  baseUrl(): string | null {
    const base = typeof this.options.baseUrl === 'function' ? this.options.baseUrl() : this.options.baseUrl;
    return base ? base.replace(/\/+$/, '') : null;
  }

  /**
   * Calls an operation through its descriptor and answers its body, typed by the descriptor's
   * response schema; throws ServiceError when not 2xx.
   */
  async call<E extends Endpoint>(endpoint: E, ...[args]: CallRest<E, EndpointOptions<B, S>>): Promise<ResponseOf<E>> {
    const { method, path, opts } = requestOf(endpoint, args);
    return (await this.request(method, path, opts)) as ResponseOf<E>;
  }

  /** Calls an operation through its descriptor and answers any status (typed when 2xx). */
  async answer<E extends Endpoint>(
    endpoint: E,
    ...[args]: CallRest<E, EndpointOptions<B, S>>
  ): Promise<EndpointAnswer<E, R['headers']>> {
    const { method, path, opts } = requestOf(endpoint, args);
    const res = await this.send(method, path, opts);
    const ok = res.status >= 200 && res.status < 300;
    return ok ? { ok, ...res, body: res.body as ResponseOf<E> } : { ok, ...res };
  }

  /** Calls the service and answers the parsed body, unread; throws ServiceError when not 2xx. */
  async request(method: string, path: string, opts: CallOptions<B, S> = {}): Promise<unknown> {
    const res = await this.send(method, path, opts);
    if (res.status >= 200 && res.status < 300) return res.body;
    throw errorFromResponse(res.status, res.body);
  }

  /** Sends a request and answers any status with its parsed body. */
  async send(method: string, path: string, opts: CallOptions<B, S> = {}): Promise<ServiceAnswer<R>> {
    const res = await this.exchange(method, path, opts);
    let body: unknown;
    try {
      body = await readBody(res);
    } catch (err) {
      // An answer cut short (the connection lost mid-body) is no answer, like a failed connect.
      if ((err as { name?: unknown } | null)?.name === 'AbortError') throw err;
      throw errorFromNetwork(err, this.baseUrl() ?? '');
    }
    return { status: res.status, headers: res.headers, body };
  }

  /** The response of a 2xx answer, its body unread (downloads); throws ServiceError otherwise. */
  async fetchOk(method: string, path: string, opts: CallOptions<B, S> = {}): Promise<R> {
    const res = await this.exchange(method, path, opts);
    if (res.status >= 200 && res.status < 300) return res;
    throw errorFromResponse(res.status, await readBody(res));
  }

  /** Sends with the access token, once more with a fresher one after a 401; answers any status. */
  async exchange(method: string, path: string, opts: CallOptions<B, S> = {}): Promise<R> {
    const auth = opts.auth === undefined ? (this.options.auth ?? null) : opts.auth;
    const token = auth ? await auth.token() : null;
    const res = await this.once(method, path, opts, token);
    if (res.status !== 401 || !auth || !token) return res;
    // An access token lives minutes: a refused one is renewed and the request sent once more.
    await res.text().catch(() => undefined);
    return this.once(method, path, opts, await auth.token(token));
  }

  private async once(method: string, path: string, opts: CallOptions<B, S>, token: string | null): Promise<R> {
    const base = this.baseUrl();
    if (!base)
      throw new ServiceError({
        message: 'The service address is not known yet',
        code: 'SERVICE_UNAVAILABLE',
        status: null,
      });
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | B | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.body !== undefined) {
      body = typeof opts.body === 'function' ? (opts.body as () => B)() : opts.body;
    }
    let res: R;
    try {
      res = await this.options.fetch(`${base}${withQuery(path, opts.query)}`, {
        method,
        headers,
        body,
        signal: opts.signal,
      });
    } catch (err) {
      // The caller's own abort stays an abort; anything else is "no answer".
      if ((err as { name?: unknown } | null)?.name === 'AbortError') throw err;
      this.options.onReachable?.(false);
      throw errorFromNetwork(err, base);
    }
    this.options.onReachable?.(true);
    return res;
  }
}
