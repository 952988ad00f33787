/**
 * Helpers for pipeline tests: a service with a chosen manifest folder, accounts, uploads,
 * samples, runs through REST and GraphQL, a graphql-ws subscriber, and waiting for statuses.
 */
import { fileURLToPath } from 'node:url';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../../helpers/test-service';

export const FIXTURE_MANIFESTS = fileURLToPath(new URL('./fixtures/manifests', import.meta.url));
export const SHIPPED_MANIFESTS = fileURLToPath(new URL('../../../resources/pipelines', import.meta.url));

export interface Kit {
  service: TestService;
  adminToken: string;
  api<T = Record<string, unknown>>(
    path: string,
    /** null: no authorization header. */
    token: string | null,
    init?: { method?: string; body?: unknown },
  ): Promise<{ status: number; body: T }>;
  createUser(username: string, canRun?: boolean): Promise<{ id: number; token: string }>;
  upload(token: string, filename: string, text: string | Buffer): Promise<number>;
  /** The id of a pipeline's latest version, by the pipeline's name. */
  latestVersion(name: string): Promise<number>;
  /** An annotation sheet kept as a data record through POST /api/data/sheets; its id. */
  keepSheet(token: string, filename: string, bytes: string | Buffer): Promise<number>;
  createSample(
    token: string,
    name: string,
    read1: number,
    read2?: number,
    metadata?: Record<string, unknown>,
  ): Promise<number>;
  run(
    token: string,
    versionId: number,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  waitFor(token: string, id: number, statuses: string[], timeoutMs?: number): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** Starts a service whose catalogue comes from `manifestDir`, with an admin account. */
export async function startKit(
  manifestDir = SHIPPED_MANIFESTS,
  options: Parameters<typeof startTestService>[0] = {},
): Promise<Kit> {
  process.env.LANEWAY_PIPELINES_DIR = manifestDir;
  const service = await startTestService(options);
  const json = async <T = Record<string, unknown>>(
    path: string,
    token: string | null,
    init: { method?: string; body?: unknown } = {},
  ) => {
    const res = await service.api(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
  };
  const login = async (username: string, password: string) => {
    const r = await json<{ token: string }>('/api/login', null, { body: { username, password } });
    if (r.status !== 200) throw new Error(`login ${username}: ${r.status}`);
    return r.body.token;
  };
  const setup = await json('/api/setup', null, {
    body: { username: 'admin', password: 'admin password 1', email: 'admin@lab.example', name: 'Admin' },
  });
  // A restart on a kept data folder finds the admin already there.
  if (setup.status !== 201 && !(options.dataDir && setup.status === 409))
    throw new Error(`setup: ${setup.status} ${JSON.stringify(setup.body)}`);
  const adminToken = await login('admin', 'admin password 1');
  let uploads = 0;
  /** Posts a multipart form; the answer's id, or a throw naming `what` when the status differs. */
  const postForm = async (path: string, token: string, form: FormData, status: number, what: string) => {
    const res = await service.api(path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const body = (await res.json()) as { id: number };
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(body)}`);
    return body.id;
  };
  const kit: Kit = {
    service,
    adminToken,
    api: (path, token, init) => json(path, token, init),
    async createUser(username, canRun = true) {
      const r = await json<{ id: number }>('/api/users/', adminToken, {
        body: {
          username,
          password: `${username} password 1`,
          email: `${username}@lab.example`,
          name: username,
          can_run_pipelines: canRun,
        },
      });
      if (r.status !== 201) throw new Error(`create user: ${r.status} ${JSON.stringify(r.body)}`);
      return { id: r.body.id, token: await login(username, `${username} password 1`) };
    },
    async upload(token, filename, text) {
      const form = new FormData();
      form.append('filename', filename);
      form.append('chunk', '0');
      form.append('total_chunks', '1');
      form.append('file_id', `kit-${++uploads}-${Date.now()}`);
      form.append('file', new Blob([new Uint8Array(Buffer.from(text))]), filename);
      return postForm('/api/upload', token, form, 200, `upload ${filename}`);
    },
    async latestVersion(name) {
      const list = await json<Array<{ name: string; versions: Array<{ id: number }> }>>('/api/pipelines', adminToken);
      const pipeline = list.body.find((p) => p.name === name);
      if (!pipeline) throw new Error(`no pipeline named ${name}`);
      return pipeline.versions.at(-1)!.id;
    },
    async keepSheet(token, filename, bytes) {
      const form = new FormData();
      form.append('annotation', new Blob([new Uint8Array(Buffer.from(bytes))]), filename);
      return postForm('/api/data/sheets', token, form, 201, `keep sheet ${filename}`);
    },
    async createSample(token, name, read1, read2, metadata = {}) {
      const r = await json<{ id: number }>('/api/samples/', token, {
        body: {
          name,
          read1,
          ...(read2 ? { read2 } : {}),
          metadata: { Organism: 'Homo sapiens', Category: 'Genomic DNA', ...metadata },
        },
      });
      if (r.status !== 201) throw new Error(`create sample: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.id;
    },
    run: (token, versionId, body) => json(`/api/pipelines/versions/${versionId}/run`, token, { body }),
    async waitFor(token, id, statuses, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const r = await json(`/api/executions/${id}`, token);
        if (statuses.includes(r.body.status as string)) return r.body;
        if (Date.now() > deadline)
          throw new Error(`execution ${id} stayed ${r.body.status}: ${JSON.stringify(r.body).slice(0, 2000)}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    },
    async stop() {
      await service.stop();
      delete process.env.LANEWAY_PIPELINES_DIR;
    },
  };
  return kit;
}

/** A graphql-ws client authenticated with `token` in connectionParams. */
export function wsClient(kit: Kit, token: string): Client {
  return createClient({
    url: `${kit.service.url.replace(/^http/, 'ws')}/api/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: true,
  });
}

export interface Update {
  kind: string;
  sequence: number;
  status: string;
  progress: number;
  error: string | null;
  processExecutions: Array<{
    process: string;
    status: string;
    progress: number;
    startTime: string | null;
    endTime: string | null;
  }>;
  logs: Array<{ timestamp: string; process: string; message: string; level: string }>;
}

export const UPDATES_QUERY = `subscription ($id: ID!) {
  executionUpdates(id: $id) {
    kind sequence status progress error
    processExecutions { process status progress startTime endTime }
    logs { timestamp process message level }
  }
}`;

/** Subscribes to an execution's updates; resolves with every update once the stream ends. */
export function collectUpdates(client: Client, id: number): { done: Promise<Update[]>; updates: Update[] } {
  const updates: Update[] = [];
  const done = new Promise<Update[]>((resolve, reject) => {
    client.subscribe<{ executionUpdates: Update }>(
      { query: UPDATES_QUERY, variables: { id: String(id) } },
      {
        next: (r) => {
          if (r.errors) reject(new Error(JSON.stringify(r.errors)));
          else updates.push(r.data!.executionUpdates);
        },
        error: (e) => reject(e instanceof Error ? e : new Error(JSON.stringify(e))),
        complete: () => resolve(updates),
      },
    );
  });
  return { done, updates };
}

/** Checks an update stream: snapshot first, gap-free sequence, one terminal status at the end. */
export function checkSequence(updates: Update[]): string[] {
  const problems: string[] = [];
  if (updates[0]?.kind !== 'SNAPSHOT') problems.push('the first update is not a SNAPSHOT');
  for (let i = 2; i < updates.length; i++) {
    if (updates[i]!.sequence !== updates[i - 1]!.sequence + 1) {
      problems.push(`sequence jumps from ${updates[i - 1]!.sequence} to ${updates[i]!.sequence}`);
    }
  }
  const last = updates.at(-1);
  if (!last || last.kind !== 'STATUS' || !['completed', 'failed', 'cancelled'].includes(last.status)) {
    problems.push('the stream does not end with a final STATUS');
  }
  let progress = 0;
  for (const u of updates) {
    if (u.progress < progress) problems.push(`progress goes back from ${progress} to ${u.progress}`);
    progress = u.progress;
  }
  return problems;
}
