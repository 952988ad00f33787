/**
 * The renderer's adapter over the one service client (src/shared/service-client): the
 * browser's fetch, the access token from the desktop core (a fresh one after a 401, then one
 * more try), calls through the endpoint descriptors of src/shared/service-api/endpoints (the
 * answer's type is the descriptor's, never the screen's choice) and downloads. Failures are ServiceError; a request
 * that cannot reach the service is reported so the frame can show a lost connection.
 */
import type { CallRest, Endpoint, ResponseOf } from '../../../shared/service-api/endpoint';
import type { Multipart } from '../../../shared/service-client/multipart';
import { isNetworkError, ServiceError } from '../../../shared/service-client/service-error';
import {
  requestOf,
  ServiceHttp,
  withQuery,
  type FetchLike,
  type Query,
} from '../../../shared/service-client/service-http';

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
   * The desktop core as the way to the service, when it is one: the core speaks a Flow
   * server's wire for the screens (docs/flow-client.md); null calls the service directly.
   */
  throughCore?(): CoreRoute | null;
}

/** Calls made through the desktop core (`service:read`, `service:send`, `service:download`). */
export interface CoreRoute {
  read(path: string): Promise<unknown>;
  send(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown): Promise<unknown>;
  download(path: string): Promise<{ blob: Blob; filename: string | null }>;
}

/**
 * Methods re-sent once after the service could not be reached. A POST is not: it may have
 * reached a service that was killed before it answered, and sending it again could create
 * the thing twice; the screen shows its error and the person decides.
 */
const RESENDABLE = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** The renderer's own options of a call, beside the descriptor's params, query and body. */
export interface RequestOptions {
  /** A form from the shared multipart builder, its files as Blobs. */
  form?: Multipart<Blob>;
  signal?: AbortSignal;
}

export interface ServiceClient {
  baseUrl(): string | null;
  /** Calls an operation through its descriptor: `call(getLanesById, { params: { id } })`. */
  call<E extends Endpoint>(endpoint: E, ...args: CallRest<E, RequestOptions>): Promise<ResponseOf<E>>;
  /** Fetches an operation's binary answer with the token (downloads, templates). */
  blob<E extends Endpoint>(endpoint: E, ...args: CallRest<E>): Promise<{ blob: Blob; filename: string | null }>;
  accessToken(fresh: boolean): Promise<string | null>;
  /** Whether the service pushes execution updates (a socket); else the screens poll. */
  live(): boolean;
}

const browserFetch: FetchLike<Blob, AbortSignal, Response> = (url, init) => fetch(url, init);

/** An empty answer (204) is undefined to the screens. */
const orUndefined = (answer: unknown): unknown => (answer === '' ? undefined : answer);

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

  const call = async <E extends Endpoint>(endpoint: E, ...[args]: CallRest<E, RequestOptions>) => {
    const { form, ...rest } = (args ?? {}) as RequestOptions & Record<string, unknown>;
    // A Flow profile's screens go through the desktop core, which speaks Flow's wire.
    const core = options.throughCore?.();
    if (core) {
      if (form)
        throw new ServiceError({
          code: 'VALIDATION_ERROR',
          status: 400,
          message: "This server takes files through the desktop's upload queue only: give the file's path",
          body: {},
        });
      const { method, path, opts } = requestOf<Blob, AbortSignal>(endpoint, rest as never);
      const full = withQuery(path, opts.query as Query | undefined);
      const verb = method.toUpperCase();
      const answer = verb === 'GET' ? core.read(full) : core.send(verb as 'POST', full, opts.json);
      return orUndefined(await answer) as ResponseOf<E>;
    }
    // A form is one Blob of its framing and files; its type carries the boundary.
    const sendOptions = form
      ? {
          ...rest,
          headers: { 'content-type': form.contentType },
          raw: new Blob(form.segments, { type: form.contentType }),
        }
      : rest;
    const answer = await withRediscovery(endpoint.method, () => http.call(endpoint as Endpoint, sendOptions as never));
    return orUndefined(answer) as ResponseOf<E>;
  };

  return {
    baseUrl: () => http.baseUrl(),
    accessToken: options.accessToken,
    call,
    live: () => !options.throughCore?.(),
    async blob(endpoint, ...[args]) {
      const { method, path, opts } = requestOf<Blob, AbortSignal>(endpoint, args);
      const core = options.throughCore?.();
      if (core) return core.download(withQuery(path, opts.query as Query | undefined));
      const res = await withRediscovery(method, () => http.fetchOk(method, path, opts));
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
