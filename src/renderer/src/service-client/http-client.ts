/**
 * The service HTTP client: JSON over fetch with the Bearer access token from the desktop
 * core, one retry after a token refresh on 401, and the service's error bodies turned into
 * ServiceRequestError. Network failures are reported so the frame can show a lost connection.
 */
import { errorFromResponse, ServiceRequestError } from './service-error';

export interface ServiceClientOptions {
  /** The service origin (`http://host:port`), or null while it is not known. */
  baseUrl(): string | null;
  /** The current access token; `fresh` asks the desktop core to refresh it first. */
  accessToken(fresh: boolean): Promise<string | null>;
  /** Called with false when a request could not reach the service, true when one did. */
  onReachable?(reachable: boolean): void;
}

export interface RequestOptions {
  body?: unknown;
  form?: FormData;
  query?: Record<string, string | number | boolean | undefined | null>;
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

function buildUrl(base: string, path: string, query?: RequestOptions['query']): string {
  const url = new URL(path, base);
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  return url.toString();
}

/** Creates the client; every screen uses this one instance through the services context. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const send = async (method: string, path: string, opts: RequestOptions, fresh: boolean): Promise<Response> => {
    const base = options.baseUrl();
    if (!base) throw new ServiceRequestError('The service address is not known yet', 'SERVICE_UNAVAILABLE', 0);
    const token = await options.accessToken(fresh);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (opts.form) body = opts.form;
    else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    try {
      const res = await fetch(buildUrl(base, path, opts.query), { method, headers, body, signal: opts.signal });
      options.onReachable?.(true);
      return res;
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      options.onReachable?.(false);
      throw new ServiceRequestError(`Cannot reach the service at ${base}`, 'NETWORK', 0);
    }
  };

  const exchange = async (method: string, path: string, opts: RequestOptions = {}): Promise<Response> => {
    let res = await send(method, path, opts, false);
    // An access token lives 30 minutes: on 401 ask the core for a fresh one and try once more.
    if (res.status === 401) res = await send(method, path, opts, true);
    if (!res.ok) throw await errorFromResponse(res);
    return res;
  };

  const request = async <T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> => {
    const res = await exchange(method, path, opts);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };

  return {
    baseUrl: options.baseUrl,
    accessToken: options.accessToken,
    request,
    get: (path, query) => request('GET', path, { query }),
    post: (path, body) => request('POST', path, { body: body ?? {} }),
    put: (path, body) => request('PUT', path, { body }),
    del: (path) => request('DELETE', path),
    async blob(path) {
      const res = await exchange('GET', path);
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
