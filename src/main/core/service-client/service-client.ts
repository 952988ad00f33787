/**
 * The core's client of the service API (undici): JSON calls and raw bodies with the Bearer
 * access token, one re-send after a 401 with a freshly refreshed token, and every failure as a
 * ServiceCallError carrying DesktopErrorData.
 */
import { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { errorFromNetwork, errorFromResponse, ServiceCallError } from './service-error';

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

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** A JSON body, or raw bytes with their own content-type in headers. */
  json?: unknown;
  body?: Buffer | AsyncIterable<Uint8Array> | (() => Buffer | AsyncIterable<Uint8Array>);
  signal?: AbortSignal;
  /** Send without the access token (login, setup, token refresh). */
  anonymous?: boolean;
  /** Told when the request waits for the access token to be refreshed (true), and when it has it. */
  onTokenWait?: (waiting: boolean) => void;
}

/** The access token; a caller that asked is told when getting it takes a refresh. */
async function tokenFrom(auth: TokenSource, onWait?: (waiting: boolean) => void): Promise<string> {
  const pending = auth.token();
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

export class ServiceClient {
  readonly baseUrl: string;
  private readonly agent: Agent;
  constructor(private readonly options: ServiceClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const timeout = options.timeoutMs ?? 60_000;
    this.agent = new Agent({
      headersTimeout: timeout,
      bodyTimeout: timeout,
      keepAliveTimeout: 4_000,
      connect: { timeout: 10_000 },
    });
  }

  /** Calls the service and answers the parsed body; throws ServiceCallError when not 2xx. */
  async call<T = unknown>(method: Dispatcher.HttpMethod, path: string, opts: CallOptions = {}): Promise<T> {
    const res = await this.send(method, path, opts);
    if (res.status >= 200 && res.status < 300) return res.body as T;
    throw new ServiceCallError(errorFromResponse(res.status, res.body), res.status);
  }

  /** Sends a request with the access token, re-sending once after a 401; answers any status. */
  async send(method: Dispatcher.HttpMethod, path: string, opts: CallOptions = {}): Promise<RawResponse> {
    const auth = opts.anonymous ? null : (this.options.auth ?? null);
    let token = auth ? await tokenFrom(auth, opts.onTokenWait) : null;
    let res = await this.once(method, path, opts, token);
    if (res.status === 401 && auth && token) {
      auth.invalidate(token);
      token = await tokenFrom(auth, opts.onTokenWait);
      res = await this.once(method, path, opts, token);
    }
    return res;
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  private async once(
    method: Dispatcher.HttpMethod,
    path: string,
    opts: CallOptions,
    token: string | null,
  ): Promise<RawResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | Buffer | Readable | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.body !== undefined) {
      const raw = typeof opts.body === 'function' ? opts.body() : opts.body;
      body = Buffer.isBuffer(raw) ? raw : Readable.from(raw);
    }
    try {
      const res = await request(`${this.baseUrl}${path}`, {
        method,
        headers,
        body,
        signal: opts.signal,
        dispatcher: this.agent,
      });
      const type = String(res.headers['content-type'] ?? '');
      const text = await res.body.text();
      let parsed: unknown = text;
      if (type.includes('json') && text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      return { status: res.statusCode, headers: res.headers, body: parsed };
    } catch (err) {
      if ((err as Error)?.name === 'AbortError' && opts.signal?.aborted) throw err;
      throw new ServiceCallError(errorFromNetwork(err), null);
    }
  }
}
