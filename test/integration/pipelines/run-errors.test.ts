import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fastqText } from '../../helpers/qc-fastq';
import { FIXTURE_MANIFESTS, startKit, type Kit } from './pipeline-kit';

// Real engines on a shared two-core machine: allow for slow runs.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Pipeline = { id: number; name: string; versions: Array<{ id: number; version: string }> };

describe('run errors, in API.md order', () => {
  let kit: Kit;
  let required: number;
  let steps: number;
  let missingTool: number;
  let human: number;
  let fish: number;
  let strangersSample: number;
  let strangersData: number;
  let viewer: { id: number; token: string };

  beforeAll(async () => {
    kit = await startKit(FIXTURE_MANIFESTS);
    const list = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body;
    const v = (name: string) => list.find((p) => p.name === name)!.versions.at(-1)!.id;
    required = v('Test Required');
    steps = v('Test Steps');
    missingTool = v('Test Missing Tool');
    human = await kit.createSample(
      kit.adminToken,
      'human1',
      await kit.upload(kit.adminToken, 'h1.fastq', fastqText({ reads: 20, seed: 1 })),
    );
    fish = await kit.createSample(
      kit.adminToken,
      'fish1',
      await kit.upload(kit.adminToken, 'f1.fastq', fastqText({ reads: 20, seed: 2 })),
      undefined,
      {
        Organism: 'Danio rerio',
      },
    );
    const stranger = await kit.createUser('stranger');
    strangersData = await kit.upload(stranger.token, 's1.fastq', fastqText({ reads: 20, seed: 3 }));
    strangersSample = await kit.createSample(stranger.token, 'theirs', strangersData);
    viewer = await kit.createUser('viewer', false);
  });
  afterAll(async () => {
    await kit.stop();
  });

  const good = () => ({ samples: [human], parameters: { steps: 1, label: 'ok' } });

  it('INSUFFICIENT_PERMISSIONS comes first, whatever else is wrong', async () => {
    const r = await kit.run(viewer.token, required, { samples: [fish, 999999], parameters: { steps: 'x' } });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', status: 403, error: expect.any(String) });
  });

  it('answers 404 for an unknown version and for samples the caller cannot see', async () => {
    expect((await kit.run(kit.adminToken, 999999, good())).body).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const invisible = await kit.run(kit.adminToken, required, { samples: [strangersSample], parameters: {} });
    expect(invisible.body).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect((await kit.run(kit.adminToken, required, { samples: [999999] })).status).toBe(404);
  });

  it('INVALID_SAMPLES, with a reason per sample, before parameter errors', async () => {
    const none = await kit.run(kit.adminToken, required, { samples: [], parameters: {} });
    expect(none.body).toMatchObject({
      code: 'INVALID_SAMPLES',
      status: 400,
      invalid_samples: [{ sample_id: null, reason: expect.stringMatching(/at least 1/) }],
    });
    const organism = await kit.run(kit.adminToken, required, { samples: [human, fish], parameters: {} });
    expect(organism.body).toMatchObject({
      code: 'INVALID_SAMPLES',
      invalid_samples: [{ sample_id: fish, reason: expect.stringMatching(/Danio rerio is not supported/) }],
    });
    expect((await kit.run(kit.adminToken, required, { samples: [human, human], parameters: {} })).body).toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('MISSING_PARAMETERS lists missing_params, before invalid ones', async () => {
    const r = await kit.run(kit.adminToken, required, {
      samples: [human],
      parameters: { reference: 'not an id', colour: 'red' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'MISSING_PARAMETERS', missing_params: ['steps', 'label'] });
  });

  it('INVALID_PARAMETERS names each field: type, bound, pattern, unknown, invisible file', async () => {
    const r = await kit.run(kit.adminToken, required, {
      samples: [human],
      parameters: { steps: 99, label: 'ABC', colour: 'red', reference: strangersData },
    });
    expect(r.body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      status: 400,
      fields: {
        steps: 'value must be at most 10',
        label: 'must match [a-z]+',
        colour: 'is not a parameter of this pipeline version',
        reference: 'no such data record among yours',
      },
    });
    const typed = await kit.run(kit.adminToken, required, {
      samples: [human],
      parameters: { steps: '3', label: 'ok', reference: '/etc/passwd' },
    });
    expect(typed.body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      fields: { steps: 'must be a whole number', reference: 'must be a data record id' },
    });
  });

  it('refuses resources beyond this machine and malformed extras', async () => {
    const r = await kit.run(kit.adminToken, required, {
      ...good(),
      resources: { cpus: 4096, memory: 'lots', time_limit: 'soon' },
    });
    expect(r.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: {
        'resources.cpus': expect.stringMatching(/CPUs/),
        'resources.memory': expect.any(String),
        'resources.time_limit': expect.any(String),
      },
    });
    expect((await kit.run(kit.adminToken, required, { ...good(), priority: 'urgent' })).body).toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect((await kit.run(kit.adminToken, required, { ...good(), colour: 1 })).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { colour: 'unknown field' },
    });
    const notJson = await kit.service.api(`/api/pipelines/versions/${required}/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${kit.adminToken}`, 'content-type': 'application/json' },
      body: '{"samples":',
    });
    expect(notJson.status).toBe(400);
  });

  it('refuses a version this machine cannot run, saying why', async () => {
    const r = await kit.run(kit.adminToken, missingTool, {});
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/laneway-no-such-tool/);
  });

  it('checks chaining: the upstream must be visible, of an upstream pipeline, completed, with reads', async () => {
    const stepsRun = await kit.run(kit.adminToken, steps, { samples: [human], parameters: { steps: 1 } });
    const early = await kit.run(kit.adminToken, required, {
      upstream_execution: stepsRun.body.id,
      parameters: { steps: 1, label: 'ok' },
    });
    expect(early.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { upstream_execution: expect.stringMatching(/must be completed/) },
    });
    await kit.waitFor(kit.adminToken, stepsRun.body.id as number, ['completed']);
    // Test Steps writes text results, not reads: nothing to chain from.
    const noReads = await kit.run(kit.adminToken, required, {
      upstream_execution: stepsRun.body.id,
      parameters: { steps: 1, label: 'ok' },
    });
    expect(noReads.body).toMatchObject({
      code: 'INVALID_SAMPLES',
      invalid_samples: [{ sample_id: human, reason: expect.stringMatching(/no reads/) }],
    });
    const wrongKind = await kit.run(kit.adminToken, steps, { upstream_execution: stepsRun.body.id });
    expect(wrongKind.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { upstream_execution: expect.stringMatching(/has none/) },
    });
    const stranger = await kit.createUser('chainer');
    const invisible = await kit.run(stranger.token, required, { upstream_execution: stepsRun.body.id });
    expect(invisible.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { upstream_execution: 'no such execution among yours' },
    });
  });

  it('GraphQL runPipeline reports the same errors with the code in extensions', async () => {
    const mutation = 'mutation ($input: RunPipelineInput) { runPipeline(input: $input) { id } }';
    const call = async (token: string, input: Record<string, unknown>) =>
      (
        await kit.api<{ errors: Array<{ message: string; extensions: Record<string, unknown> }> }>(
          '/api/graphql',
          token,
          { body: { query: mutation, variables: { input } } },
        )
      ).body.errors[0]!;
    expect((await call(viewer.token, { pipelineVersionId: String(required) })).extensions.code).toBe(
      'INSUFFICIENT_PERMISSIONS',
    );
    const invalid = await call(kit.adminToken, { pipelineVersionId: String(required), samples: [String(fish)] });
    expect(invalid.extensions).toMatchObject({ code: 'INVALID_SAMPLES', invalid_samples: [{ sample_id: fish }] });
    const missing = await call(kit.adminToken, {
      pipelineVersionId: String(required),
      samples: [String(human)],
      parameters: {},
    });
    expect(missing.extensions).toMatchObject({ code: 'MISSING_PARAMETERS', missing_params: ['steps', 'label'] });
    const bad = await call(kit.adminToken, {
      pipelineVersionId: String(required),
      samples: [String(human)],
      parameters: { steps: 0, label: 'x' },
    });
    expect(bad.extensions).toMatchObject({ code: 'INVALID_PARAMETERS', fields: { steps: 'value must be at least 1' } });
    expect((await call(kit.adminToken, { pipelineVersionId: 'abc' })).extensions.code).toBe('VALIDATION_ERROR');
    const noInput = (
      await kit.api<{ errors: Array<{ extensions: Record<string, unknown> }> }>('/api/graphql', kit.adminToken, {
        body: { query: 'mutation { runPipeline { id } }' },
      })
    ).body;
    expect(noInput.errors[0]!.extensions.code).toBe('VALIDATION_ERROR');
    const syntax = (
      await kit.api<{ errors: Array<{ extensions: Record<string, unknown> }> }>('/api/graphql', kit.adminToken, {
        body: { query: '{ pipelines {' },
      })
    ).body;
    expect(syntax.errors[0]!.extensions.code).toBe('VALIDATION_ERROR');
    expect(
      (
        await kit.service.api('/api/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"query":"{ pipelines { id } }"}',
        })
      ).status,
    ).toBe(401);
  });
});
