/**
 * A Flow profile's screens through the desktop core (issue 23: the renderer reads and changes
 * through `service:read`, `service:send` and `service:download`, the core speaks Flow's wire),
 * against Laneway's own `/flow/api` mount on a real service over HTTP. A lane goes the Flow way
 * (the sheet to `/upload/annotation`, then read 1 and read 2 to `/upload/multiplexed`, through
 * the resumable queue) and its samples appear; the screens' samples, a project made on the
 * server, the pipeline catalogue with a version's typed parameters, a launch with typed
 * parameters (Flow's run body), the execution followed to its end with its log read by
 * offset, and an output downloaded; a second lane whose sheet Flow warns about is refused with
 * the warnings, then made with ignore_warnings. What the desktop made is what the server's own
 * `/api` sees, and what the real flowbio CLI reads on the mount (where the vendored client is).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coreHandlers } from '../../../src/main/core/core-handlers';
import { enqueueLane } from '../../../src/main/core/ingest/confirm';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { coreSuite } from './core-suite';
import { openFlowCore, signInOverFlow } from './flow-core-parts';
import { laneSheetXlsx } from './flow-lane-fixture';
import type { Execution, LogsPage, Pipeline, PipelineVersion, Project, Sample } from '../../../src/shared/service-api';
import type { Lane } from '../../../src/shared/service-api/lanes';
import type { PageOf } from '../../../src/shared/service-api';
import { generateDesignLane } from '../../helpers/design-lane-generator';
import { flowbioUnavailable, flowbioVenv } from '../../helpers/flow/flowbio-venv';
import { tempDir } from '../../helpers/temp';

const suite = coreSuite();
const state = tempDir('laneway-flow-screens-');
const files = tempDir('laneway-flow-screens-files-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(() => {
  state.remove();
  files.remove();
});

/** Waits on state the server reaches (a bound, not a timing assertion). */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`not reached in time: ${JSON.stringify(v).slice(0, 300)}`);
    await sleep(150);
  }
}

/** The server's own /api as its owner sees it, to check what the desktop made through Flow's wire. */
async function lanewayApi<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const login = await fetch(`${suite.service.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ada', password: 'correct horse' }),
  });
  const { token } = (await login.json()) as { token: string };
  const res = await fetch(`${suite.service.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

describe("a Flow profile's screens through the desktop core, against /flow/api", () => {
  it('sends a lane the Flow way, then reads, launches with typed parameters, follows and downloads', async () => {
    const db = openQueueDb(state.path);
    const { sessions, queue, watchers } = openFlowCore(state.path, db, { chunkSize: 64 * 1024 });
    const core = coreHandlers({ sessions, queue, watchers }, async () => {});
    const read = <T>(path: string) => core['service:read']({ path }) as Promise<T>;

    await signInOverFlow(sessions, suite.service.url);
    queue.setSettings({ concurrency: 2, limit_mbps: null, schedule: [] });
    queue.start();

    // The lane: paired reads with inline barcodes and the sheet as the Lane screen builds it (.xlsx).
    const dir = join(files.path, 'lane');
    mkdirSync(dir, { recursive: true });
    const gen = generateDesignLane({ kind: 'gbs', reads: 3000, samples: 4, paired: true, seed: 23, dir });
    const xlsx = await laneSheetXlsx(gen.samples.map((s) => [`F_${s.name}`, s.cell]));
    await enqueueLane(queue, { name: 'Flow lane', file: gen.read1, read2: gen.read2!, annotation_xlsx: xlsx });
    await queue.waitForIdle();
    const group = queue.list().groups.find((g) => g.name === 'Flow lane')!;
    expect(group.state, group.error ?? '').toBe('created');
    const lane = await until(
      () => read<Lane>(`/api/lanes/${group.created_id}`),
      (l) => l.status === 'complete',
    );
    expect(lane.samples.map((s) => s.name)).toEqual(gen.samples.map((s) => `F_${s.name}`));
    expect(lane.samples.every((s) => typeof s.sample_id === 'number')).toBe(true);
    // The server's own view: one lane, paired, from the reads the queue sent.
    const serverLanes = await lanewayApi<PageOf<Lane>>('/api/lanes');
    expect(serverLanes.items).toHaveLength(1);
    expect(serverLanes.items[0]).toMatchObject({ read1: group.created_id, status: 'complete', paired: true });

    // Samples: Flow's search and detail in the screens' shapes.
    const samples = await read<PageOf<Sample>>('/api/samples?page=1&per_page=25');
    expect(samples.count).toBe(4);
    const first = samples.items.find((s) => s.name === `F_${gen.samples[0]!.name}`)!;
    expect(first).toMatchObject({ metadata: { organism: 'Homo sapiens', category: 'Total RNA' } });
    expect(first.created).toMatch(/^\d{4}-\d\d-\d\dT/);
    const detail = await read<Sample>(`/api/samples/${first.id}`);
    expect(detail.data.length).toBe(2);
    expect(detail.data.every((d) => d.data_type === 'fastq' && d.size > 0)).toBe(true);
    const filtered = await read<PageOf<Sample>>(`/api/samples?name=${encodeURIComponent(first.name)}`);
    expect(filtered.items.map((s) => s.id)).toEqual([first.id]);

    // Projects: one made on the server, read through Flow's wire with its samples.
    const made = await lanewayApi<Project>('/api/projects', {
      method: 'POST',
      body: { name: 'Flow project', description: 'made on the server', sample_ids: [first.id] },
    });
    const projects = await read<PageOf<Project>>('/api/projects?page=1&per_page=25');
    expect(projects.items.map((p) => p.name)).toContain('Flow project');
    const project = await read<Project>(`/api/projects/${made.id}`);
    expect(project).toMatchObject({ id: made.id, name: 'Flow project', sample_ids: [first.id] });
    const members = await read<PageOf<Sample>>(`/api/samples?project=${made.id}&per_page=100`);
    expect(members.items.map((s) => s.name)).toEqual([first.name]);
    // Changing projects is not offered there: said, not pretended.
    await expect(core['service:send']({ method: 'DELETE', path: `/api/projects/${made.id}` })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND', message: 'Changing projects from Laneway is not offered by a Flow server' },
    });

    // Pipelines: the catalogue and a version's typed parameters from Flow's schema.
    const pipelines = await read<Pipeline[]>('/api/pipelines');
    const trimming = pipelines.find((p) => p.name === 'Adapter Trimming')!;
    expect(trimming.category.name).toBe('Quality Control');
    const version = await read<PipelineVersion>(`/api/pipelines/versions/${trimming.versions[0]!.id}`);
    expect(version.parameters.find((p) => p.name === 'quality_cutoff')).toMatchObject({ type: 'float', default: 20 });
    expect(version.parameters.some((p) => p.name === 'samples')).toBe(false);

    // The launch as the Pipelines screen sends it: Flow's run body with the parameters typed back.
    const launched = (await core['service:send']({
      method: 'POST',
      path: `/api/pipelines/versions/${version.id}/run`,
      body: { name: 'Trim F', samples: [first.id], parameters: { quality_cutoff: 25, min_length: 30 } },
    })) as Execution;
    expect(launched).toMatchObject({ name: 'Trim F', status: expect.stringMatching(/queued|running/) });
    const ended = await until(
      () => read<Execution>(`/api/executions/${launched.id}`),
      (e) => ['completed', 'failed', 'cancelled'].includes(e.status),
    );
    expect(ended.status, ended.error ?? '').toBe('completed');
    expect(ended).toMatchObject({ name: 'Trim F', samples: [{ id: first.id, name: first.name }] });
    expect(ended.parameters).toMatchObject({ quality_cutoff: 25, min_length: 30 });
    expect(ended.process_executions!.length).toBeGreaterThan(0);
    const onServer = await lanewayApi<Execution>(`/api/executions/${launched.id}`);
    expect(onServer.parameters).toMatchObject({ quality_cutoff: 25, min_length: 30 });

    // The log through Flow's byte offsets: read whole, then nothing more after its end.
    const log = await read<LogsPage>(`/api/executions/${launched.id}/logs?after=0&limit=5000`);
    expect(log.items.length).toBeGreaterThan(0);
    expect(log.complete).toBe(true);
    const again = await read<LogsPage>(`/api/executions/${launched.id}/logs?after=${log.next}&limit=5000`);
    expect(again.items).toEqual([]);
    const half = log.items[Math.floor(log.items.length / 2)]!;
    const rest = await read<LogsPage>(`/api/executions/${launched.id}/logs?after=${half.id}&limit=5000`);
    expect(rest.items.map((l) => l.message)).toEqual(
      log.items.slice(log.items.indexOf(half) + 1).map((l) => l.message),
    );

    // Executions list and an output downloaded through the core.
    const list = await read<PageOf<Execution>>('/api/executions?page=1&per_page=25&status=completed');
    expect(list.items.map((e) => e.id)).toContain(launched.id);
    const output = ended.outputs![0]!;
    const file = await core['service:download']({ path: `/api/data/${output.id}/download` });
    expect(file.filename).toBe(output.filename);
    expect(Buffer.from(file.base64, 'base64').length).toBe(output.size);

    // The same names again in a second lane: Flow's annotation warns; the queue's read fails with
    // the warnings named (the Lane screen offers to submit anyway), and the lane sent again with
    // ignore_warnings is made.
    const dir2 = join(files.path, 'lane2');
    mkdirSync(dir2, { recursive: true });
    const gen2 = generateDesignLane({ kind: 'gbs', reads: 1500, samples: 4, paired: true, seed: 24, dir: dir2 });
    const xlsx2 = await laneSheetXlsx(
      gen2.samples.map((s, i) => [i === 0 ? `F_${gen.samples[0]!.name}` : `G_${s.name}`, s.cell]),
    );
    const lane2 = { name: 'Flow lane 2', file: gen2.read1, read2: gen2.read2!, annotation_xlsx: xlsx2 };
    await enqueueLane(queue, lane2);
    await queue.waitForIdle();
    const failed = queue.list().jobs.filter((j) => j.state === 'failed');
    // Read 1 carries Flow's verdict; read 2, which needs read 1, ends with it instead of waiting.
    expect(failed).toHaveLength(2);
    expect(failed.find((j) => /Read 1 of this lane was not uploaded/.test(j.error ?? ''))).toBeDefined();
    const warned = failed.find((j) => !/Read 1 of this lane/.test(j.error ?? ''))!;
    expect(warned.error).toMatch(/warns about the lane's sheet: row \d+: .*F_S01.*ignore_warnings/);
    await enqueueLane(queue, { ...lane2, ignore_warnings: true });
    await queue.waitForIdle();
    const accepted = queue
      .list()
      .groups.filter((g) => g.name === 'Flow lane 2')
      .at(-1)!;
    expect(accepted.state, accepted.error ?? '').toBe('created');
    await until(
      () => read<Lane>(`/api/lanes/${accepted.created_id}`),
      (l) => l.status === 'complete',
    );

    await queue.stop();
    await sessions.close();
    db.close();

    // What the real client sees on the mount (FLOW-WIRE.md's own reads, through flowbio's CLI).
    if (flowbioUnavailable() !== null) return;
    const py = flowbioVenv();
    const login = await fetch(`${suite.service.url}/flow/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', password: 'correct horse' }),
    });
    const { token } = (await login.json()) as { token: string };
    // Asynchronously: the service answers from this same process.
    const flowbio = async (args: string[]) =>
      (
        await promisify(execFile)(py.cli[0]!, [...py.cli.slice(1), '--json', 'api', 'get', ...args], {
          env: {
            ...process.env,
            FLOW_API_URL: `${suite.service.url}/flow/api`,
            FLOW_API_TOKEN: token,
            HOME: state.path,
          },
          encoding: 'utf8',
        })
      ).stdout;
    const seen = JSON.parse(await flowbio(['/samples/search', '--param', 'name=F_', '--param', 'count=100'])) as {
      samples: Array<{ id: string; name: string; organism: { id: string } }>;
    };
    // The first lane's four, and the second lane's F_S01 that was accepted with its warning.
    expect(seen.samples.map((x) => x.name).sort()).toEqual(
      [...gen.samples.map((x) => `F_${x.name}`), `F_${gen.samples[0]!.name}`].sort(),
    );
    const run = JSON.parse(await flowbio([`/executions/${launched.id}`])) as {
      status: string;
      params: Record<string, unknown>;
      samples: Array<{ id: string }>;
    };
    expect(run).toMatchObject({ status: 'OK', params: { quality_cutoff: 25 }, samples: [{ id: String(first.id) }] });
  }, 300_000);
});
