/**
 * The desktop core's service client for a Flow server (a profile whose wire is Flow): the same
 * interface as Laneway's ServiceClient (`call`, `send`, `close`), so the session, the upload
 * queue, the group finisher, the run launcher and the watchers run unchanged, with each of
 * their `/api` requests answered by the Flow calls that do the same (FLOW-WIRE.md):
 * sign-in with Flow's `flow_refresh_token` cookie, the offset chunk protocol, samples made by
 * `/upload/sample`, the pipeline catalogue, Flow's run body, executions and downloads. What
 * Flow does not offer answers 404 with a message that says so, never a wrong success.
 */
import { errorFromResponse } from '../../../../shared/service-client/service-error';
import type { CallRest, Endpoint, ResponseOf } from '../../../../shared/service-api/endpoint';
import { requestOf, withQuery, type EndpointAnswer } from '../../../../shared/service-client/service-http';
import { ServiceClient, type CallOptions, type CoreBody, type TokenSource } from '../service-client';
import type { FlowState } from './flow-state';
import { FlowExecutions } from './flow-executions';
import { FlowLanes } from './flow-lanes';
import { FlowScreens } from './flow-screens';
import { FlowSession } from './flow-session';
import { FlowUploads, FlowVocabulary, type UploadIntents } from './flow-uploads';
import { laneData } from './flow-shapes';
import { FlowWire, Headers, laneBody as errorFromFlow } from './flow-wire';

export interface FlowClientOptions {
  /** Flow's base URL B (`https://app.flow.bio/api`, or a Laneway service's `/flow/api`). */
  baseUrl: string;
  auth?: TokenSource | null;
  timeoutMs?: number;
  /** The adapter's memory across a crash (FlowState over a file in the state folder). */
  state: FlowState;
  /** What the queue knows of an upload (its sample group) by file_id. */
  intents?: UploadIntents;
}

type Answer = { status: number; body: unknown; headers?: Headers };

/** A core request as the routes below read it: the descriptor's call turned into method, path and body. */
interface FlowRequest {
  headers?: Record<string, string>;
  json?: unknown;
  body?: CoreBody | (() => CoreBody);
  signal?: AbortSignal;
}

const notOffered = (what: string): Answer => {
  const error = `${what} is not offered by a Flow server`;
  return { status: 404, body: { error, code: 'NOT_FOUND', status: 404 } };
};

export class FlowServiceClient extends ServiceClient {
  /** Read 2 names read 1's data id on its chunks (FLOW-WIRE.md §4.1, §4.2): the queue sends read 1 first. */
  override readonly readsInOrder = true;
  private readonly wire: FlowWire;
  private readonly uploads: FlowUploads;
  private readonly session: FlowSession;
  private readonly executions: FlowExecutions;
  private readonly screens: FlowScreens;
  private readonly lanes: FlowLanes;

  constructor(private readonly flow: FlowClientOptions) {
    super({ baseUrl: flow.baseUrl, timeoutMs: flow.timeoutMs });
    this.wire = new FlowWire(flow.baseUrl, flow.auth ?? null, flow.timeoutMs);
    const vocabulary = new FlowVocabulary(this.wire);
    this.lanes = new FlowLanes(this.wire, flow.state);
    this.uploads = new FlowUploads(this.wire, flow.state, flow.intents ?? (() => null), vocabulary, this.lanes);
    this.session = new FlowSession(this.wire);
    this.executions = new FlowExecutions(this.wire, flow.state);
    this.screens = new FlowScreens(this.wire, vocabulary);
  }

  override async call<E extends Endpoint>(endpoint: E, ...[args]: CallRest<E, CallOptions>): Promise<ResponseOf<E>> {
    const res = await this.answerOf(endpoint, args);
    if (res.status >= 200 && res.status < 300) return res.body as ResponseOf<E>;
    throw errorFromResponse(res.status, res.body);
  }

  override async send<E extends Endpoint>(
    endpoint: E,
    ...[args]: CallRest<E, CallOptions>
  ): Promise<EndpointAnswer<E, Headers>> {
    const answer = await this.answerOf(endpoint, args);
    const ok = answer.status >= 200 && answer.status < 300;
    return { ok, status: answer.status, headers: answer.headers ?? new Headers(), body: answer.body } as EndpointAnswer<
      E,
      Headers
    >;
  }

  /** The Flow calls that answer one of the core's operations (by its method and path). */
  private answerOf(endpoint: Endpoint, args: unknown): Promise<Answer> {
    const { method, path, opts } = requestOf<CoreBody, AbortSignal>(endpoint, (args ?? {}) as never);
    const query = opts.query;
    return this.route(method.toUpperCase(), withQuery(path, query), {
      headers: opts.headers,
      json: opts.json,
      body: opts.body,
      signal: opts.signal,
    });
  }

  override async close(): Promise<void> {
    await Promise.all([super.close(), this.wire.close()]);
  }

  private async route(method: string, fullPath: string, opts: FlowRequest): Promise<Answer> {
    const url = new URL(fullPath, 'http://x');
    const q = url.searchParams;
    const path = url.pathname.replace(/\/+$/, '');
    const seg = path.split('/').slice(1);
    const id = (i: number) => decodeURIComponent(seg[i] ?? '');
    const auth = opts.headers?.authorization;
    const json = opts.json as Record<string, unknown> | undefined;

    if (path === '/api/login' && method === 'POST') return this.session.login(json ?? {});
    if (path === '/api/token') return this.session.token(opts.headers?.cookie ?? '');
    if (path === '/api/logout') return this.session.logout(opts.headers?.cookie ?? '');
    if (path === '/api/me' && method === 'GET') return this.session.me(auth);
    if (path === '/api/setup') return { status: 409, body: this.conflict("A Flow server's accounts are made on it") };
    if (path === '/api/health') return this.session.health();
    if (path === '/api/notifications') return { status: 200, body: { count: 0, page: 1, per_page: 50, items: [] } };

    if (path === '/api/upload' && method === 'POST') {
      const body = typeof opts.body === 'function' ? opts.body() : opts.body;
      if (!body) return { status: 400, body: this.invalid('A chunk needs a body') };
      return this.uploads.chunk(opts.headers?.['content-type'] ?? '', body, opts.signal);
    }
    if (seg[1] === 'upload' && seg.length === 3 && seg[2] !== 'multiplexed') {
      if (method === 'GET') return this.uploads.status(id(2));
      if (method === 'DELETE') return this.uploads.cancel(id(2));
    }
    if (seg[1] === 'data' && /^\d+$/.test(id(2)) && method === 'GET') {
      if (seg.length === 3) return this.relay('GET', `/data/${id(2)}`, laneData);
      if (seg[3] === 'download') return this.executions.download(id(2));
    }
    if (path === '/api/samples' && method === 'POST') return this.sampleOf(json ?? {});
    if (path === '/api/samples' && method === 'GET') return this.samples(q);
    if (seg[1] === 'samples' && /^\d+$/.test(id(2)) && seg.length === 3 && method === 'GET')
      return this.screens.sample(id(2));
    if (path === '/api/projects' && method === 'GET') return this.screens.projects(q);
    if (seg[1] === 'projects' && /^\d+$/.test(id(2)) && seg.length === 3 && method === 'GET')
      return this.screens.project(id(2));
    if (seg[1] === 'projects' && method !== 'GET') return notOffered('Changing projects from Laneway');
    if (path === '/api/data' && method === 'GET') return this.screens.data(q);
    if (seg[1] === 'executions' && /^\d+$/.test(id(2)) && seg[3] === 'logs' && method === 'GET')
      return this.screens.logs(id(2), q);
    if (path === '/api/pipelines' && method === 'GET') return this.executions.pipelines();
    if (seg[1] === 'pipelines' && seg[2] === 'versions' && seg.length === 4 && method === 'GET')
      return this.executions.version(id(3));
    // Laneway's vocabularies from Flow's: organisms by Latin name, sample types as categories.
    if (path === '/api/organisms' && method === 'GET')
      return this.relay('GET', '/organisms', (raw) =>
        (raw as Array<Record<string, string>>).map((o) => ({ name: o.latin_name ?? o.name, common_name: o.name })),
      );
    if (path === '/api/categories' && method === 'GET')
      return this.relay('GET', '/samples/types', (raw) =>
        (raw as Array<Record<string, string>>).map((t) => ({ name: t.identifier, description: t.description ?? '' })),
      );
    if (seg[1] === 'pipelines' && seg[2] === 'versions' && seg[4] === 'run' && method === 'POST')
      return this.executions.run(id(3), json ?? {});
    if (path === '/api/executions' && method === 'GET') return this.executions.list(q);
    if (seg[1] === 'executions' && /^\d+$/.test(id(2)) && seg.length === 3 && method === 'GET')
      return this.executions.get(id(2));
    if (seg[1] === 'groups') return notOffered('Group management');
    if (path === '/api/upload/multiplexed' && method === 'POST') {
      const body = typeof opts.body === 'function' ? opts.body() : opts.body;
      if (!body) return { status: 400, body: this.invalid('A lane needs its reads and sheet') };
      return this.lanes.created(opts.headers?.['content-type'] ?? '', body);
    }
    if (path === '/api/lanes' && method === 'GET') return this.lanes.lanes(q);
    if (seg[1] === 'lanes' && /^\d+$/.test(id(2)) && seg.length === 3 && method === 'GET')
      return this.lanes.lane(id(2));
    if (path === '/api/annotation/lane' && method === 'GET') return this.template();
    if (seg[1] === 'lanes') return notOffered('This lane action');
    if (seg[1] === 'reports' || path.endsWith('/multiqc')) return notOffered('MultiQC on demand');
    if (path.endsWith('/rerun') || path.endsWith('/resume')) return notOffered('Running an execution again');
    return notOffered(`${method} ${path}`);
  }

  /** The lane sheet template: the server's own (Laneway's mount adds Flow's File columns to Laneway's). */
  private async template(): Promise<Answer> {
    const res = await this.wire.send('GET', '/annotation/generic');
    if (res.status !== 200) return { status: res.status, body: errorFromFlow(res.status, res.body) };
    const headers = new Headers({ 'content-disposition': 'attachment; filename="lane-annotation-template.xlsx"' });
    return { status: 200, body: res.bytes, headers };
  }

  /** A Flow read shown in Laneway's shape (404s and refusals pass through as errors). */
  private async relay(method: string, flowPath: string, shape: (raw: unknown) => unknown): Promise<Answer> {
    const res = await this.wire.send(method, flowPath);
    if (res.status === 200) return { status: 200, body: shape(res.body) };
    const err = errorFromFlow(res.status, res.body);
    return { status: res.status, body: err };
  }

  /**
   * `POST /api/samples/`: Flow made the sample with the last chunk of its last read
   * (`/upload/sample`); the adapter kept its id. Reads uploaded without it (found on the
   * server already) cannot become a sample on Flow's wire.
   */
  private sampleOf(body: Record<string, unknown>): Answer {
    const sample = this.flow.state.sampleOf(String(body.read1));
    if (sample) return { status: 201, body: { id: Number(sample), name: body.name } };
    return {
      status: 400,
      body: this.invalid(
        'A Flow server makes a sample only while its reads upload; these reads were on the server already, so upload them again as a new sample there',
      ),
    };
  }

  /** Flow's sample search; read 1 of a sample this adapter made is known (the group finisher matches on it). */
  private async samples(q: URLSearchParams): Promise<Answer> {
    const res = await this.screens.samples(q);
    if (res.status !== 200) return res;
    const page = res.body as { items: Array<{ id: number; read1: number }> };
    for (const s of page.items) s.read1 = this.read1Of(String(s.id)) ?? s.read1;
    return res;
  }

  private read1Of(sampleId: string): number | null {
    const found = this.flow.state.read1OfSample(sampleId);
    return found === null ? null : Number(found);
  }

  private invalid(message: string) {
    return { error: message, code: 'VALIDATION_ERROR', status: 400 };
  }

  private conflict(message: string) {
    return { error: message, code: 'CONFLICT', status: 409 };
  }
}
