/**
 * The renderer's adapter over the one service client (src/shared/service-client): the
 * browser's fetch, the access token from the desktop core (a fresh one after a 401, then one
 * more try), JSON helpers for the screens and downloads. Failures are ServiceError; a request
 * that cannot reach the service is reported so the frame can show a lost connection.
 */
import type { Multipart } from '../../../shared/service-client/multipart';
import { isNetworkError } from '../../../shared/service-client/service-error';
import { ServiceHttp, withQuery, type FetchLike, type Query } from '../../../shared/service-client/service-http';

export interface ServiceClientOptions {
  /** The service origin (`http://host:port`), or null while it is not known. */
  baseUrl(): string | null;
  /** The current access token; `fresh` asks the desktop core to refresh it first. */
  accessToken(fresh: boolean): Promise<string | null>;
  /** Called with false when a request could not reach the service, true when one did. */
  onReachable?(reachable: boolean): void;
  /**
   * Asks the desktop core where the service is now, after a request could not reach it;
   * resolves true when a retry is worth it (see rediscover.ts).
   */
  rediscover?(): Promise<boolean>;
  /**
   * Reads (GET) through the desktop core instead, when it answers a promise: the core speaks a
   * Flow server's wire for the screens (docs/flow-client.md); null reads directly.
   */
  readThroughCore?(path: string): Promise<unknown> | null;
}

/**
 * Methods re-sent once after the service could not be reached. A POST is not: it may have
 * reached a service that was killed before it answered, and sending it again could create
 * the thing twice; the screen shows its error and the person decides.
 */
const RESENDABLE = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export interface RequestOptions {
  body?: unknown;
  /** A form from the shared multipart builder, its files as Blobs. */
  form?: Multipart<Blob>;
  query?: Query;
  signal?: AbortSignal;
}

export interface ServiceClient {
  baseUrl(): string | null;
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, query?: RequestOptions['query']): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  del<T>(path: string): Promise<T>;
  /** Fetches a binary resource with the token (downloads, templates). */
  blob(path: string): Promise<{ blob: Blob; filename: string | null }>;
  accessToken(fresh: boolean): Promise<string | null>;
}

const browserFetch: FetchLike<Blob, AbortSignal, Response> = (url, init) => fetch(url, init);

/** An empty answer (204) is undefined to the screens. */
const orUndefined = <T>(answer: T | ''): T => (answer === '' ? (undefined as T) : answer);

/** Creates the client; every screen uses this one instance through the services context. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const http = new ServiceHttp({
    baseUrl: options.baseUrl,
    fetch: browserFetch,
    auth: { token: (stale) => options.accessToken(stale !== undefined) },
    onReachable: options.onReachable,
  });

  /** Runs `send`; after a network failure asks where the service is now and re-sends once. */
  const withRediscovery = async <T>(method: string, send: () => Promise<T>): Promise<T> => {
    try {
      return await send();
    } catch (err) {
      if (!isNetworkError(err) || !options.rediscover) throw err;
      const known = await options.rediscover().catch(() => false);
      if (!known || !RESENDABLE.has(method.toUpperCase())) throw err;
      return send();
    }
  };

  const request = <T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> => {
    const viaCore = method === 'GET' && !opts.form ? options.readThroughCore?.(withQuery(path, opts.query)) : null;
    if (viaCore) return viaCore as Promise<T>;
    return withRediscovery(method, () => requestOnce<T>(method, path, opts));
  };

  const requestOnce = async <T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> => {
    const { form, body, ...rest } = opts;
    if (!form) return orUndefined(await http.call<T | ''>(method, path, { ...rest, json: body }));
    // The body is one Blob of the form's framing and files; its type carries the boundary.
    const blob = new Blob(form.segments, { type: form.contentType });
    const answer = await http.call<T | ''>(method, path, {
      ...rest,
      headers: { 'content-type': form.contentType },
      body: blob,
    });
    return orUndefined(answer);
  };

  return {
    baseUrl: () => http.baseUrl(),
    accessToken: options.accessToken,
    request,
    get: (path, query) => request('GET', path, { query }),
    post: (path, body) => request('POST', path, { body: body ?? {} }),
    put: (path, body) => request('PUT', path, { body }),
    del: (path) => request('DELETE', path),
    async blob(path) {
      const res = await withRediscovery('GET', () => http.fetchOk('GET', path));
      const disposition = res.headers.get('content-disposition') ?? '';
      const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
      return { blob: await res.blob(), filename: match?.[1] ? decodeURIComponent(match[1]) : null };
    },
  };
}

/** Saves a blob through the browser's download mechanism (works in Electron and browser mode). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
