/**
 * Issue 11 rows 6 and 7, sent exactly as reported to POST /api/pipelines/{id}/run (and the
 * GraphQL mutation that shares its command):
 * - row 6: `metadata` nested 5,000 deep answered 500 (JSON.stringify overflowed its stack);
 * - row 7: `resources.queue` = "normal\n#SBATCH --wrap=x\n...$(id)" was accepted (201) and
 *   reached Snakemake/Nextflow command lines and job scripts.
 * Each must be a 400 with the error body, store nothing, and leave the service answering.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fastqText } from '../../helpers/qc-fastq';
import { FIXTURE_MANIFESTS, startKit, type Kit } from '../pipelines/pipeline-kit';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

type Pipeline = { id: number; name: string; versions: Array<{ id: number; version: string }> };

/** `{"a":{"a":...{"leaf":true}...}}` as text: JSON.stringify itself overflows at this depth. */
function nestedJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}{"leaf":true}${'}'.repeat(depth)}`;
}

function nested(depth: number): Record<string, unknown> {
  return JSON.parse(nestedJson(depth)) as Record<string, unknown>;
}

describe('run bodies an attacker or a careless script sends (issue 11 rows 6, 7)', () => {
  let kit: Kit;
  let steps: number;
  let sample: number;
  beforeAll(async () => {
    kit = await startKit(FIXTURE_MANIFESTS);
    const list = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body;
    steps = list.find((p) => p.name === 'Test Steps')!.versions.at(-1)!.id;
    sample = await kit.createSample(
      kit.adminToken,
      's1',
      await kit.upload(kit.adminToken, 's1.fastq', fastqText({ reads: 10, seed: 4 })),
    );
  });
  afterAll(async () => {
    await kit.stop();
  });

  const executionCount = async () =>
    (await kit.api<{ count: number }>('/api/executions/?per_page=1', kit.adminToken)).body.count;

  it('refuses metadata nested 5,000 deep with 400, over REST and GraphQL, and stores nothing', async () => {
    const before = await executionCount();
    const post = async (path: string, text: string) => {
      const res = await kit.service.api(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${kit.adminToken}`, 'content-type': 'application/json' },
        body: text,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const rest = await post(
      `/api/pipelines/versions/${steps}/run`,
      `{"samples":[${sample}],"metadata":${nestedJson(5000)}}`,
    );
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    const gql = await post(
      '/api/graphql',
      `{"query":"mutation ($input: RunPipelineInput) { runPipeline(input: $input) { id } }",` +
        `"variables":{"input":{"pipelineVersionId":"${steps}","samples":["${sample}"],"metadata":${nestedJson(5000)}}}}`,
    );
    expect(gql.status).toBe(400);
    expect(await executionCount()).toBe(before);
    // Ordinary nesting still works, and the service answers.
    const fine = await kit.run(kit.adminToken, steps, { samples: [sample], metadata: nested(10) });
    expect(fine.status).toBe(201);
    expect((await kit.service.api('/api/health')).status).toBe(200);
  });

  it('refuses a queue name carrying a newline, #SBATCH and $(id) with 400, and stores nothing', async () => {
    const before = await executionCount();
    for (const queue of ['normal\n#SBATCH --wrap=x\n...$(id)', 'a b', 'q;rm -rf /', '`id`', "x'y", '-p']) {
      const res = await kit.run(kit.adminToken, steps, { samples: [sample], resources: { queue } });
      expect(res.status, queue).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
      expect((res.body.fields as Record<string, string>)['resources.queue']).toMatch(/queue name/);
    }
    expect(await executionCount()).toBe(before);
    for (const queue of ['normal', 'gpu-long', 'batch@pbs.lab.example', 'short_q.2']) {
      const ok = await kit.run(kit.adminToken, steps, { samples: [sample], resources: { queue } });
      expect(ok.status, queue).toBe(201);
    }
  });

  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await kit.service.api('/api/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${kit.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { data?: unknown; errors?: Array<{ extensions?: { code?: string } }> },
    };
  };

  it('one GraphQL request starts at most one run (issue 24 item 7: 20 aliases made 20 runs)', async () => {
    const before = await executionCount();
    const fields = Array.from(
      { length: 20 },
      (_, i) => `r${i}: runPipeline(input: {pipelineVersionId: "${steps}", samples: ["${sample}"]}) { id }`,
    );
    const res = await gql(`mutation { ${fields.join(' ')} }`);
    expect(await executionCount()).toBe(before + 1);
    // The second alias fails (and, its field being non-null, ends the operation there).
    expect(res.body.errors!.length).toBeGreaterThan(0);
    for (const e of res.body.errors!) expect(e.extensions?.code).toBe('VALIDATION_ERROR');
  });

  it('execution names are capped at 200 characters over GraphQL as over REST (issue 24 item 7)', async () => {
    const before = await executionCount();
    const long = await gql('mutation ($input: RunPipelineInput) { runPipeline(input: $input) { id } }', {
      input: { pipelineVersionId: String(steps), samples: [String(sample)], name: 'x'.repeat(500_000) },
    });
    expect(long.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
    const rest = await kit.api(`/api/pipelines/versions/${steps}/run`, kit.adminToken, {
      method: 'POST',
      body: { samples: [sample], name: 'y'.repeat(201) },
    });
    expect(rest.status).toBe(400);
    expect(await executionCount()).toBe(before);
    const fits = await gql('mutation ($input: RunPipelineInput) { runPipeline(input: $input) { id name } }', {
      input: { pipelineVersionId: String(steps), samples: [String(sample)], name: 'z'.repeat(200) },
    });
    expect(fits.body.errors).toBeUndefined();
  });
});
