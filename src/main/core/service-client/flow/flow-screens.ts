/**
 * The renderer's reads of samples, projects, data and execution logs on a Flow server: each
 * Laneway `/api` read the screens make, answered by the Flow reads that hold the same
 * (`/samples/search`, `/samples/{id}` with `/samples/{id}/data`, `/projects/search`,
 * `/projects/{id}` with `/projects/{id}/samples`, `/data/search`, `/executions/{id}?log=`),
 * in Laneway's shapes (flow-screen-shapes.ts), so the screens are the same code for both wires.
 */
import { laneStatus } from './flow-shapes';
import { lanePage, screenData, screenLogLines, screenProject, screenSample } from './flow-screen-shapes';
import { laneBody, type FlowWire } from './flow-wire';
import type { FlowVocabulary } from './flow-uploads';

type Answer = { status: number; body: unknown };

/** Flow's page size rules: 1 to 100 (above 100 is a 400 there). */
const countOf = (q: URLSearchParams, fallback: number) =>
  Math.max(1, Math.min(100, Number(q.get('per_page') ?? fallback) || fallback));
const pageOf = (q: URLSearchParams) => Math.max(1, Number(q.get('page') ?? 1) || 1);

export class FlowScreens {
  constructor(
    private readonly wire: FlowWire,
    private readonly vocabulary: FlowVocabulary,
  ) {}

  /** A Flow read; a refusal keeps Flow's status with Laneway's error body. */
  private async read(path: string, shape: (raw: unknown) => unknown): Promise<Answer> {
    const res = await this.wire.send('GET', path);
    if (res.status !== 200) return { status: res.status, body: laneBody(res.status, res.body) };
    return { status: 200, body: shape(res.body) };
  }

  /** `GET /api/samples?name=&organism=&category=&project=`: Flow's sample search. */
  async samples(q: URLSearchParams): Promise<Answer> {
    const count = countOf(q, 25);
    const flow = new URLSearchParams({ page: String(pageOf(q)), count: String(count) });
    if (q.get('name')) flow.set('name', q.get('name')!);
    if (q.get('organism')) flow.set('organism', await this.vocabulary.organism(q.get('organism')!));
    if (q.get('category')) flow.set('sample_types', await this.vocabulary.sampleType(q.get('category')!));
    if (q.get('project')) flow.set('project', q.get('project')!);
    const path = q.get('project')
      ? `/projects/${encodeURIComponent(q.get('project')!)}/samples?page=${pageOf(q)}&count=${count}`
      : `/samples/search?${flow}`;
    const res = await this.read(path, (raw) => raw);
    if (res.status !== 200) return res;
    // Flow's search items name the organism by id and common name: Laneway names it in Latin.
    const raw = res.body as { samples: Array<{ organism?: { id?: string; latin_name?: string } | null }> };
    for (const s of raw.samples)
      if (s.organism?.id && !s.organism.latin_name)
        s.organism.latin_name = (await this.vocabulary.latinName(s.organism.id)) ?? undefined;
    return { status: 200, body: lanePage(raw, 'samples', count, (s) => screenSample(s)) };
  }

  /** `GET /api/samples/{id}`: the detail with its files (reads first, then outputs). */
  async sample(id: string): Promise<Answer> {
    const detail = await this.wire.send('GET', `/samples/${encodeURIComponent(id)}`);
    if (detail.status !== 200) return { status: detail.status, body: laneBody(detail.status, detail.body) };
    const files: unknown[] = [];
    for (let page = 1; page <= 50; page++) {
      const res = await this.wire.send('GET', `/samples/${encodeURIComponent(id)}/data?page=${page}&count=100`);
      if (res.status !== 200) break;
      const b = res.body as { count: number; data: unknown[] };
      files.push(...b.data);
      if (files.length >= b.count || b.data.length === 0) break;
    }
    return { status: 200, body: screenSample(detail.body, files) };
  }

  /** `GET /api/projects`: Flow's project search, each with its samples (Flow's items only count them). */
  async projects(q: URLSearchParams): Promise<Answer> {
    const count = countOf(q, 25);
    const res = await this.read(`/projects/search?page=${pageOf(q)}&count=${count}`, (raw) => raw);
    if (res.status !== 200) return res;
    const raw = res.body as { projects: Array<{ id: string }> };
    const members = new Map<string, unknown[]>();
    for (const p of raw.projects) members.set(p.id, await this.projectSamples(p.id));
    return {
      status: 200,
      body: lanePage(raw, 'projects', count, (p) => screenProject(p, members.get(String((p as { id: string }).id)))),
    };
  }

  /** A project's samples, page by page. */
  private async projectSamples(id: string): Promise<unknown[]> {
    const samples: unknown[] = [];
    for (let page = 1; page <= 100; page++) {
      const res = await this.wire.send('GET', `/projects/${encodeURIComponent(id)}/samples?page=${page}&count=100`);
      if (res.status !== 200) break;
      const b = res.body as { count: number; samples: unknown[] };
      samples.push(...b.samples);
      if (samples.length >= b.count || b.samples.length === 0) break;
    }
    return samples;
  }

  /** `GET /api/projects/{id}`: the detail with its samples by name. */
  async project(id: string): Promise<Answer> {
    const detail = await this.wire.send('GET', `/projects/${encodeURIComponent(id)}`);
    if (detail.status !== 200) return { status: detail.status, body: laneBody(detail.status, detail.body) };
    return { status: 200, body: screenProject(detail.body, await this.projectSamples(id)) };
  }

  /** `GET /api/data`: Flow's data search (a launch form's file parameters pick from it). */
  async data(q: URLSearchParams): Promise<Answer> {
    const count = countOf(q, 25);
    const type = q.get('data_type');
    return this.read(`/data/search?page=${pageOf(q)}&count=${count}`, (raw) => {
      const page = lanePage(raw, 'data', count, screenData);
      // Flow's data search has no type filter: the page is narrowed here (its count stays Flow's).
      if (type) page.items = (page.items as Array<{ data_type: string }>).filter((d) => d.data_type === type);
      return page;
    });
  }

  /**
   * `GET /api/executions/{id}/logs?after=`: Flow's log from a byte offset (`?log=`); each
   * line's id is the offset after it, so `after` is that offset. Complete once the execution
   * ended and the log is read to its end.
   */
  async logs(id: string, q: URLSearchParams): Promise<Answer> {
    const after = Math.max(0, Number(q.get('after') ?? 0) || 0);
    const path = `/executions/${encodeURIComponent(id)}?log=${after}&include=log&include=status&include=started&include=finished`;
    return this.read(path, (raw) => {
      const e = raw as { log?: string; status?: string; started?: unknown; finished?: unknown };
      const ended = ['completed', 'failed', 'cancelled'].includes(laneStatus(e.status, e.started));
      const when =
        typeof e.finished === 'number' ? new Date(e.finished * 1000).toISOString() : new Date().toISOString();
      const { items, next } = screenLogLines(e.log ?? '', after, when, ended);
      const limit = Math.max(1, Number(q.get('limit') ?? 1000) || 1000);
      const page = items.slice(0, limit);
      const last = page.at(-1) as { id: number } | undefined;
      return {
        items: page,
        next: last?.id ?? after,
        complete: ended && page.length === items.length && (last?.id ?? after) === next,
      };
    });
  }
}
