/**
 * The stateful suite's way to the service: plain HTTP (fetch) and graphql-ws, nothing of the
 * app's clients, so that the suite tests the wire and not a client. Every request is bounded:
 * one that does not answer within HANG_MS fails the property (a bound on hangs, not a timing
 * test). Every answer is checked to be below 500 and, when an error, to carry the spec's body.
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** A request that takes longer than this is a hang. */
export const HANG_MS = 20_000;
/** A run or a lane that has not ended after this has hung. */
export const END_MS = 120_000;

export interface Answer {
  status: number;
  body: Record<string, unknown> & { items?: Array<Record<string, unknown>> };
  bytes: Buffer;
}

/** Counts of requests and of commands, printed at the end. */
export const tally = {
  requests: 0,
  requests2xx: 0,
  commands: 0,
  commands2xx: 0,
  /** Per command name: [succeeded, ran]. */
  byName: {} as Record<string, [number, number]>,
};

export class Wire {
  constructor(readonly url: string) {}

  /** One request; JSON bodies are sent as JSON, FormData as multipart. */
  async call(method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const what = `${method} ${path}`;
    let res: Response;
    let bytes: Buffer;
    try {
      res = await fetch(`${this.url}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(HANG_MS) });
      bytes = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      if ((err as Error).name === 'TimeoutError')
        throw new Error(`${what} hung: no answer within ${HANG_MS} ms`, { cause: err });
      throw err;
    }
    tally.requests++;
    if (res.status < 300) tally.requests2xx++;
    if (res.status >= 500) throw new Error(`${what} answered ${res.status}: ${bytes.toString().slice(0, 500)}`);
    let parsed: Answer['body'] = {};
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('json') && bytes.length) parsed = JSON.parse(bytes.toString()) as Answer['body'];
    if (res.status >= 400 && (typeof parsed.code !== 'string' || parsed.status !== res.status)) {
      throw new Error(`${what} answered ${res.status} without the error body: ${bytes.toString().slice(0, 300)}`);
    }
    return { status: res.status, body: parsed, bytes };
  }

  /** Every item of a paged collection. */
  async all(path: string, token: string): Promise<Array<Record<string, unknown>>> {
    const items: Array<Record<string, unknown>> = [];
    for (let page = 1; ; page++) {
      const sep = path.includes('?') ? '&' : '?';
      const a = await this.call('GET', `${path}${sep}per_page=100&page=${page}`, token);
      if (a.status !== 200) throw new Error(`GET ${path} answered ${a.status}: ${JSON.stringify(a.body)}`);
      items.push(...(a.body.items ?? []));
      if (items.length >= (a.body.count as number) || (a.body.items ?? []).length === 0) return items;
    }
  }

  /**
   * Subscribes to an execution's updates as `token` until the stream ends: its updates, or the
   * error codes it ended with. Bounded like a run.
   */
  subscribe(token: string, id: number): Promise<{ statuses: string[]; codes: string[] }> {
    const client = createClient({
      url: `${this.url.replace(/^http/, 'ws')}/api/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: true,
    });
    const query = `subscription ($id: ID!) { executionUpdates(id: $id) { kind status } }`;
    const statuses: string[] = [];
    const codes: string[] = [];
    const ended = new Promise<void>((resolve) => {
      client.subscribe<{ executionUpdates: { status: string } }>(
        { query, variables: { id: String(id) } },
        {
          next: (r) => {
            for (const e of r.errors ?? []) codes.push(String(e.extensions?.code));
            if (r.data?.executionUpdates) statuses.push(r.data.executionUpdates.status);
          },
          error: (e) => {
            const list = Array.isArray(e) ? (e as Array<{ extensions?: { code?: unknown } }>) : [];
            for (const x of list) codes.push(String(x.extensions?.code));
            if (!list.length) codes.push(`closed: ${String((e as { code?: unknown }).code ?? e)}`);
            resolve();
          },
          complete: () => resolve(),
        },
      );
    });
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`subscription to execution ${id} hung past ${END_MS} ms`)), END_MS);
    });
    return Promise.race([ended, bound])
      .then(() => ({ statuses, codes }))
      .finally(() => {
        clearTimeout(timer);
        void client.dispose();
      });
  }
}

/** Asserts a command's main answer and counts it: the status the model expects, and for errors the code. */
export function expectAnswer(a: Answer, status: number, code: string | null, what: string): void {
  tally.commands++;
  const name = (tally.byName[what.split('(')[0]!] ??= [0, 0]);
  name[1]++;
  if (a.status < 300) {
    tally.commands2xx++;
    name[0]++;
  }
  if (a.status !== status || (code !== null && a.body.code !== code)) {
    throw new Error(
      `${what}: the model expects ${status}${code ? ` ${code}` : ''}, the service answered ${a.status} ${JSON.stringify(a.body).slice(0, 400)}`,
    );
  }
}
