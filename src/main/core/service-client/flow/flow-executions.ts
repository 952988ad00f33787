/**
 * Pipelines, launches, executions and downloads on a Flow server (FLOW-WIRE.md P1-13 to
 * P1-19) for the core's Laneway-shaped requests: the catalogue is Flow's categories with each
 * pipeline's versions; a launch `{name, samples, parameters}` becomes Flow's run body
 * `{params, data_params, csv_params, nextflow_version}` (the samples as rows of the version's
 * csv input that takes samples, parameters as strings, file parameters as data ids); the
 * launch's name, which Flow's body has no field for, is remembered by execution id.
 */
import { laneExecution, lanePipeline } from './flow-shapes';
import type { FlowState } from './flow-state';
import { Headers, laneBody, type FlowWire } from './flow-wire';

type Answer = { status: number; body: unknown; headers?: Headers };
type Obj = Record<string, unknown>;

interface FlowCategory {
  name: string;
  subcategories?: Array<{ name: string; pipelines?: Array<{ id: string }> }>;
}

interface FlowParam {
  type?: string;
  takes_samples?: boolean;
}

export class FlowExecutions {
  constructor(
    private readonly wire: FlowWire,
    private readonly state: FlowState,
  ) {}

  /** `GET /api/pipelines`: every pipeline with its versions, newest first. */
  async pipelines(): Promise<Answer> {
    const categories = await this.wire.call<FlowCategory[]>('GET', '/pipelines');
    const out: unknown[] = [];
    for (const c of categories)
      for (const sub of c.subcategories ?? [])
        for (const p of sub.pipelines ?? []) {
          const detail = await this.wire.call<unknown>('GET', `/pipelines/${encodeURIComponent(p.id)}`);
          out.push(lanePipeline(detail, c.name));
        }
    return { status: 200, body: out };
  }

  /** `GET /api/pipelines/versions/{id}`: the version's declared parameters in Laneway's terms. */
  async version(id: string): Promise<Answer> {
    const v = await this.wire.send('GET', `/pipelines/versions/${encodeURIComponent(id)}`);
    if (v.status !== 200) return { status: v.status, body: laneBody(v.status, v.body) };
    const version = v.body as {
      id: string;
      name: string;
      can_run?: boolean;
      reason?: string | null;
      pipeline?: { id?: string; name?: string };
      nextflow_versions?: string[];
      schema?: { inputs?: Array<{ params?: Obj }> };
    };
    const parameters: Obj[] = [];
    for (const input of version.schema?.inputs ?? [])
      for (const [name, raw] of Object.entries(input.params ?? {})) {
        const p = raw as Obj;
        // The samples input is filled by the launch itself; hidden ones are Flow's own.
        if (p.type === 'csv' || p.type === 'hidden') continue;
        const type =
          p.type === 'data' ? 'file' : p.type === 'number' ? 'float' : p.type === 'boolean' ? 'boolean' : 'string';
        parameters.push({
          name,
          description: typeof p.description === 'string' ? p.description : '',
          type: Array.isArray(p.valid) ? 'choice' : type,
          required: p.required === true,
          ...(p.default !== undefined ? { default: p.default } : {}),
          ...(Array.isArray(p.valid) ? { choices: p.valid } : {}),
          ...(typeof p.pattern === 'string' ? { validation: p.pattern } : {}),
        });
      }
    return {
      status: 200,
      body: {
        id: Number(version.id),
        version: version.name,
        is_latest: true,
        // Flow's answer says whether the caller may run it (its can_run), else it is assumed.
        can_run: version.can_run !== false,
        reason: version.can_run === false ? (version.reason ?? 'This Flow account cannot run pipelines') : null,
        ...(version.nextflow_versions?.[0] ? { engine: version.nextflow_versions[0] } : {}),
        ...(version.pipeline
          ? { pipeline: { id: Number(version.pipeline.id ?? 0), name: String(version.pipeline.name ?? '') } }
          : {}),
        parameters,
        requirements: {},
      },
    };
  }

  /** `POST /api/pipelines/versions/{id}/run`: Flow's run body for the version's declared inputs. */
  async run(versionId: string, launch: Obj): Promise<Answer> {
    const v = await this.wire.send('GET', `/pipelines/versions/${encodeURIComponent(versionId)}`);
    if (v.status !== 200) return { status: v.status, body: laneBody(v.status, v.body) };
    const version = v.body as { nextflow_versions?: string[]; schema?: { inputs?: Array<{ params?: Obj }> } };
    const declared: Record<string, FlowParam> = {};
    for (const input of version.schema?.inputs ?? []) Object.assign(declared, input.params ?? {});
    const csv = Object.entries(declared).find(([, p]) => p.type === 'csv' && p.takes_samples)?.[0];
    const samples = (Array.isArray(launch.samples) ? launch.samples : []) as number[];
    if (samples.length && !csv)
      return { status: 400, body: laneBody(400, { error: 'This pipeline version takes no samples' }) };
    const params: Record<string, string> = {};
    const dataParams: Record<string, string> = {};
    for (const [name, value] of Object.entries((launch.parameters ?? {}) as Obj)) {
      if (value === null || value === undefined) continue;
      if (declared[name]?.type === 'data') dataParams[name] = String(value);
      else params[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    const body = {
      params,
      data_params: dataParams,
      csv_params: csv ? { [csv]: { rows: samples.map((s) => ({ sample: String(s), values: {} })) } } : {},
      nextflow_version: version.nextflow_versions?.[0] ?? '',
    };
    const res = await this.wire.send('POST', `/pipelines/versions/${encodeURIComponent(versionId)}/run`, {
      json: body,
    });
    if (res.status !== 200 && res.status !== 201) return { status: res.status, body: laneBody(res.status, res.body) };
    const execution = res.body as { id: string };
    const name = typeof launch.name === 'string' ? launch.name : null;
    if (name) this.state.setLaunch(String(execution.id), name);
    return { status: 201, body: laneExecution(execution, name) };
  }

  /** `GET /api/executions/{id}`: the poll (Flow has no subscriptions). */
  async get(id: string): Promise<Answer> {
    const res = await this.wire.send('GET', `/executions/${encodeURIComponent(id)}`);
    if (res.status !== 200) return { status: res.status, body: laneBody(res.status, res.body) };
    return { status: 200, body: laneExecution(res.body, this.state.launchName(id)) };
  }

  /** `GET /api/executions/?sample=&page=&per_page=`: a sample's executions, else the caller's. */
  async list(q: URLSearchParams): Promise<Answer> {
    const page = Number(q.get('page') ?? 1);
    const count = Math.min(100, Number(q.get('per_page') ?? 25));
    const sample = q.get('sample');
    const search = new URLSearchParams({ page: String(page), count: String(count), return_data: 'true' });
    // Laneway's status filter in Flow's words (queued and running are both Flow's "").
    const status = { completed: 'OK', failed: 'ERROR', cancelled: 'CANCELED' }[q.get('status') ?? ''];
    if (status) search.set('status', status);
    if (q.get('pipeline')) search.set('pipeline', q.get('pipeline')!);
    const path = sample
      ? `/samples/${encodeURIComponent(sample)}/executions?page=${page}&count=${count}`
      : `/executions/search?${search}`;
    const res = await this.wire.send('GET', path);
    if (res.status !== 200) return { status: res.status, body: laneBody(res.status, res.body) };
    const b = res.body as { count: number; executions: Array<{ id: string }> };
    let items = b.executions.map((e) => laneExecution(e, this.state.launchName(String(e.id))));
    // Flow's search cannot tell queued from running (both ""): that filter is applied to the page.
    const wanted = q.get('status');
    if (wanted === 'queued' || wanted === 'running') items = items.filter((e) => e.status === wanted);
    return { status: 200, body: { count: b.count, page, per_page: count, items } };
  }

  /** `GET /api/data/{id}/download`: Flow's `/downloads/{id}/{filename}`, the bytes as they came. */
  async download(id: string): Promise<Answer> {
    const data = await this.wire.send('GET', `/data/${encodeURIComponent(id)}`);
    if (data.status !== 200) return { status: data.status, body: laneBody(data.status, data.body) };
    const filename = (data.body as { filename: string }).filename;
    const res = await this.wire.send('GET', `/downloads/${encodeURIComponent(id)}/${encodeURIComponent(filename)}`);
    // Flow answers every refusal of a download with an empty 404.
    if (res.status !== 200) return { status: res.status, body: laneBody(res.status, { error: 'Not found' }) };
    // The file's name as Laneway's download names it, for the app to save it under.
    const disposition = `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;
    return { status: 200, body: res.bytes, headers: new Headers({ 'content-disposition': disposition }) };
  }
}
