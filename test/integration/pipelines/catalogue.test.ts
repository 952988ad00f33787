import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { startKit, type Kit } from './pipeline-kit';

type Pipeline = {
  id: number;
  name: string;
  category: { id: number; name: string };
  upstream_pipelines: Array<{ id: number | null; name: string }>;
  versions: Array<{
    id: number;
    version: string;
    is_latest: boolean;
    can_run: boolean;
    reason: string | null;
    parameters: unknown[];
  }>;
};

describe('pipeline catalogue: the shipped manifests over REST and GraphQL', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit();
  });
  afterAll(async () => {
    await kit.stop();
  });

  it('lists every shipped pipeline as a bare array with the spec fields', async () => {
    const { status, body } = await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken);
    expect(status).toBe(200);
    const names = body.map((p) => p.name).sort();
    expect(names).toEqual([
      'Adapter Trimming',
      'Demultiplexing',
      'FASTQ Quality Control',
      'Read Alignment',
      'Variant Calling',
    ]);
    const align = body.find((p) => p.name === 'Read Alignment')!;
    expect(align).toMatchObject({
      description: expect.any(String),
      category: { id: 2, name: 'DNA Analysis' },
      estimated_runtime: expect.any(String),
      required_data_types: ['fastq'],
      supported_organisms: [],
    });
    expect(align.versions.map((v) => [v.version, v.is_latest])).toEqual([
      ['1.0.0', false],
      ['1.1.0', false],
      ['1.2.0', false],
      ['1.3.0', true],
    ]);
    expect(align.upstream_pipelines.map((u) => u.name)).toContain('Adapter Trimming');
    expect(align.upstream_pipelines.every((u) => typeof u.id === 'number')).toBe(true);
    const latest = align.versions[3]!;
    expect(latest.parameters).toContainEqual(
      expect.objectContaining({ name: 'preset', type: 'choice', choices: ['sr', 'map-ont', 'map-pb'], default: 'sr' }),
    );
    // File parameters declare the data types they take.
    expect(latest.parameters).toContainEqual(
      expect.objectContaining({ name: 'reference', type: 'file', data_types: ['fasta'] }),
    );
  });

  it('says why a version cannot run: Nextflow is not installed here (its Snakemake successor can)', async () => {
    const { body } = await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken);
    const vc = body.find((p) => p.name === 'Variant Calling')!.versions[0]!;
    expect(vc.can_run).toBe(false);
    expect(vc.reason).toMatch(/nextflow/);
  });

  it('answers one pipeline and one version, and 404 for unknown ids', async () => {
    const list = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body;
    const qc = list.find((p) => p.name === 'FASTQ Quality Control')!;
    const one = await kit.api<Pipeline>(`/api/pipelines/${qc.id}`, kit.adminToken);
    expect(one.body).toEqual(qc);
    const v = await kit.api(`/api/pipelines/versions/${qc.versions[0]!.id}`, kit.adminToken);
    expect(v.body).toMatchObject({
      id: qc.versions[0]!.id,
      version: '1.0.0',
      is_latest: true,
      pipeline: { id: qc.id },
      requirements: { min_samples: 1 },
    });
    expect((await kit.api('/api/pipelines/9999', kit.adminToken)).body).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
    expect((await kit.api('/api/pipelines/versions/9999', kit.adminToken)).body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await kit.api('/api/pipelines/abc', kit.adminToken)).status).toBe(400);
  });

  it('requires authentication', async () => {
    const res = await kit.service.api('/api/pipelines');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });

  it('tells a user who may not run pipelines why, on every version', async () => {
    const viewer = await kit.createUser('viewer', false);
    const { body } = await kit.api<Pipeline[]>('/api/pipelines', viewer.token);
    for (const v of body.flatMap((p) => p.versions)) {
      expect(v.can_run).toBe(false);
      expect(v.reason).toMatch(/may not run pipelines/);
    }
  });

  it('answers the GraphQL pipelines query with the spec selection', async () => {
    const res = await kit.api<{ data: { pipelines: Array<Record<string, unknown>> } }>('/api/graphql', kit.adminToken, {
      body: {
        query:
          '{ pipelines { id name description category { id name } versions { id version isLatest canRun } requiredDataTypes { name } supportedOrganisms { name } } }',
      },
    });
    expect(res.status).toBe(200);
    const align = res.body.data.pipelines.find((p) => p.name === 'Read Alignment')!;
    expect(align).toMatchObject({
      id: expect.any(String),
      category: { id: '2', name: 'DNA Analysis' },
      versions: [
        { version: '1.0.0', isLatest: false, canRun: true },
        { version: '1.1.0', isLatest: false, canRun: true },
        { version: '1.2.0', isLatest: false, canRun: true },
        { version: '1.3.0', isLatest: true, canRun: true },
      ],
      requiredDataTypes: [{ name: 'fastq' }],
      supportedOrganisms: [],
    });
    // The sample bounds of a version: Demultiplexing takes none; alignment has no upper bound.
    const bounds = await kit.api<{
      data: { pipelines: Array<{ name: string; versions: Array<{ requirements: Record<string, unknown> }> }> };
    }>('/api/graphql', kit.adminToken, {
      body: { query: '{ pipelines { name versions { requirements { minSamples maxSamples } } } }' },
    });
    const of = (name: string) => bounds.body.data.pipelines.find((p) => p.name === name)!.versions[0]!.requirements;
    expect(of('Demultiplexing')).toEqual({ minSamples: 0, maxSamples: 0 });
    expect(of('Read Alignment')).toEqual({ minSamples: 1, maxSamples: null });
  });

  it('documents the pipeline and execution routes in OpenAPI', async () => {
    const doc = (await (await kit.service.api('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const [path, method] of [
      ['/api/pipelines', 'get'],
      ['/api/pipelines/{id}', 'get'],
      ['/api/pipelines/versions/{id}', 'get'],
      ['/api/pipelines/versions/{id}/run', 'post'],
      ['/api/pipelines/{id}/run', 'post'],
      ['/api/executions/', 'get'],
      ['/api/executions/{id}', 'get'],
      ['/api/executions/{id}/logs', 'get'],
      ['/api/executions/{id}/cancel', 'post'],
      ['/api/graphql', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });
});

describe('pipeline catalogue: broken manifests are reported and skipped', () => {
  let kit: Kit;
  const dir = tempDir('laneway-manifests-');
  beforeAll(async () => {
    const worker = join(import.meta.dirname, 'fixtures', 'workers', 'steps-worker');
    mkdirSync(dir.path, { recursive: true });
    writeFileSync(
      join(dir.path, 'good.json'),
      JSON.stringify({
        name: 'Good',
        description: 'fine',
        category: 'Single Cell',
        versions: [{ version: '1', is_latest: true, engine: `node:${worker}`, requirements: { min_samples: 0 } }],
      }),
    );
    writeFileSync(join(dir.path, 'syntax.json'), '{ "name": "Broken JSON", ');
    writeFileSync(
      join(dir.path, 'fields.json'),
      JSON.stringify({
        name: 'Broken',
        category: 'Astrology',
        versions: [
          { version: '1', is_latest: true, engine: 'builtin:nope', parameters: [{ name: 'x', type: 'colour' }] },
        ],
      }),
    );
    writeFileSync(
      join(dir.path, 'two-latest.json'),
      JSON.stringify({
        name: 'Two',
        category: 'Epigenomics',
        versions: [
          { version: '1', is_latest: true, engine: 'builtin:qc' },
          { version: '2', is_latest: true, engine: 'builtin:qc' },
        ],
      }),
    );
    writeFileSync(
      join(dir.path, 'z-duplicate.json'),
      JSON.stringify({
        name: 'Good',
        category: 'Epigenomics',
        versions: [{ version: '1', is_latest: true, engine: 'builtin:qc' }],
      }),
    );
    writeFileSync(join(dir.path, 'notes.txt'), 'not a manifest');
    kit = await startKit(dir.path);
  });
  afterAll(async () => {
    await kit.stop();
    dir.remove();
  });

  it('serves the good manifest and skips every broken one', async () => {
    const { status, body } = await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken);
    expect(status).toBe(200);
    expect(body.map((p) => p.name)).toEqual(['Good']);
    expect(body[0]!.category).toEqual({ id: 4, name: 'Single Cell' });
    expect(body[0]!.versions[0]!.can_run).toBe(true);
  });
});
