/**
 * The core's adapter over the one service client (src/shared/service-client): undici's fetch on
 * a pooled Agent with timeouts (a stalled answer fails instead of hanging on a network share
 * or a flaky link), the session as token source, and a caller told when its request waits on
 * a token refresh. Every failure is a ServiceError.
 */
import { setMaxListeners } from 'node:events';
import { Readable } from 'node:stream';
import { Agent, fetch, Headers, request, Response, type Dispatcher } from 'undici';
import type { CallRest, Endpoint, ResponseOf } from '../../../shared/service-api/endpoint';
import {
  ServiceHttp,
  type AccessTokens,
  type EndpointAnswer,
  type FetchLike,
  type ServiceAnswer,
} from '../../../shared/service-client/service-http';

/** Where the access token comes from; `invalidate` forces the next `token()` to refresh. */
export interface TokenSource {
  token(): Promise<string>;
  invalidate(token: string): void;
}

export interface ServiceClientOptions {
  baseUrl: string;
  auth?: TokenSource | null;
  /** A stalled answer fails after this long (network shares and flaky links). */
  timeoutMs?: number;
}

/** A request body of the core: bytes, or a stream of them with its content-length in headers. */
export type CoreBody = Uint8Array | AsyncIterable<Uint8Array>;

export type RawResponse = ServiceAnswer<Response>;

/** The core's own options of a call, beside the descriptor's params, query and JSON body. */
export interface CallOptions {
  headers?: Record<string, string>;
  /** Raw bytes (a multipart form) with their own content-type in headers; a function gives a fresh body to a re-send. */
  raw?: CoreBody | (() => CoreBody);
  signal?: AbortSignal;
  /** Send without the access token (login, setup, token refresh). */
  anonymous?: boolean;
  /** Told when the request waits for the access token to be refreshed (true), and when it has it. */
  onTokenWait?: (waiting: boolean) => void;
}

function isStream(body: unknown): body is AsyncIterable<Uint8Array> {
  return typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
}

/**
 * Sends a body of bytes (a stream of them, or one buffer) with undici's request and answers as fetch would, the (short JSON)
 * answer read whole: an answer cut short fails here, as a network fault.
 */
async function streamed(
  dispatcher: Agent,
  url: string,
  init: { method: string; headers: Record<string, string>; body: CoreBody; signal?: AbortSignal },
): Promise<Response> {
  // A job's signal is shared by all its chunks in flight (16 and more on a long link), and each
  // request listens to it until answered: that is no leak, so no warning past ten.
  if (init.signal) setMaxListeners(0, init.signal);
  const res = await request(url, {
    dispatcher,
    method: init.method as Dispatcher.HttpMethod,
    headers: init.headers,
    body: isStream(init.body) ? Readable.from(init.body, { objectMode: false }) : init.body,
    signal: init.signal,
  });
  const text = await res.body.text();
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) headers.append(name, v);
  }
  return new Response(text === '' ? null : text, { status: res.statusCode, headers });
}

/** The access token; a caller that asked is told when getting it takes a refresh. */
async function tokenFrom(pending: Promise<string>, onWait?: (waiting: boolean) => void): Promise<string> {
  if (!onWait) return pending;
  let settled = false;
  pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  // A cached token resolves within microtasks; one that is still pending after a macrotask
  // turn is waiting on the refresh request.
  await new Promise((resolve) => setImmediate(resolve));
  if (settled) return pending;
  onWait(true);
  try {
    return await pending;
  } finally {
    onWait(false);
  }
}

/** The session as the shared client's token source, reporting waits to `onWait`. */
function accessTokens(auth: TokenSource, onWait?: (waiting: boolean) => void): AccessTokens {
  return {
    token(stale) {
      if (stale) auth.invalidate(stale);
      return tokenFrom(auth.token(), onWait);
    },
  };
}

export class ServiceClient {
  readonly baseUrl: string;
  /**
   * Whether read 2 of a lane or sample can only be sent once read 1's upload has completed (its
   * data id rides on read 2's chunks): Flow's wire, not Laneway's, where the group is made after.
   */
  readonly readsInOrder: boolean = false;
  private readonly agent: Agent;
  private readonly http: ServiceHttp<CoreBody, AbortSignal, Response>;
  constructor(private readonly options: ServiceClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const timeout = options.timeoutMs ?? 60_000;
    this.agent = new Agent({
      headersTimeout: timeout,
      bodyTimeout: timeout,
      keepAliveTimeout: 4_000,
      connect: { timeout: 10_000 },
    });
    const dispatcher = this.agent;
    // A streamed body needs `duplex: 'half'` (fetch's rule for request streams). Streamed bodies
    // (chunks of uploads) go through undici's own request instead: fetch passes each piece
    // through a web stream, copying it and collecting it after, which held a 2 GiB upload to
    // half the bare transfer's rate and its client past 300 MB (issue 21).
    const viaUndici: FetchLike<CoreBody, AbortSignal, Response> = (url, init) =>
      init.body !== undefined && typeof init.body !== 'string'
        ? streamed(dispatcher, url, { ...init, body: init.body })
        : fetch(url, { ...init, dispatcher, duplex: 'half' });
    this.http = new ServiceHttp({ baseUrl: this.baseUrl, fetch: viaUndici });
  }

  /**
   * Calls an operation through its descriptor (src/shared/service-api/endpoints) and answers its
   * body, typed by the descriptor; throws ServiceError when not 2xx.
   */
  call<E extends Endpoint>(endpoint: E, ...[args]: CallRest<E, CallOptions>): Promise<ResponseOf<E>> {
    return this.http.call(endpoint as Endpoint, this.shared(args ?? {}) as never) as Promise<ResponseOf<E>>;
  }

  /** Sends an operation with the access token, re-sending once after a 401; answers any status (typed when 2xx). */
  send<E extends Endpoint>(
    endpoint: E,
    ...[args]: CallRest<E, CallOptions>
  ): Promise<EndpointAnswer<E, Response['headers']>> {
    return this.http.answer(endpoint as Endpoint, this.shared(args ?? {}) as never) as Promise<
      EndpointAnswer<E, Response['headers']>
    >;
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  private shared<O extends CallOptions>(opts: O) {
    const { anonymous, onTokenWait, ...rest } = opts;
    const auth = anonymous || !this.options.auth ? null : accessTokens(this.options.auth, onTokenWait);
    return { ...rest, auth };
  }
}
