/**
 * Issue 11 rows 10, 11, 12 and part 3: bytes follow the data record. Real pipelines (Adapter
 * Trimming, FASTQ Quality Control chained on it), real uploads, shares through the API.
 * - Row 10: a sample shared at view with its read files not shared: running Adapter Trimming on
 *   it handed the reads' bytes over (as the trimmed output), though their download answers 404.
 * - Row 11: re-sending a chunk of an upload that completed as a duplicate of someone's shared
 *   file, after the share was revoked, answered with the other user's data record.
 * - Row 12: a sample's body listed data records of other users' executions (filename, checksum,
 *   owner) that the caller cannot open.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fastqText } from '../../helpers/qc-fastq';
import { startKit, type Kit } from '../pipelines/pipeline-kit';
import { postChunk, sha256 } from '../data/upload-helpers';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 90_000 });

type Pipeline = { id: number; name: string; versions: Array<{ id: number; is_latest: boolean }> };
type Exec = { id: number; status: string; outputs?: Array<{ id: number; filename: string }> };
type Sample = { id: number; read1: number; data: Array<{ id: number; owner: string | null }> };

describe('derived data follows the data record (issue 11 rows 10, 11, 12; part 3)', () => {
  let kit: Kit;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  let trimming: number;
  let qc: number;
  let slug: string;
  let sample: number;
  let read1: number;

  beforeAll(async () => {
    kit = await startKit();
    alice = await kit.createUser('alice');
    bob = await kit.createUser('bob');
    const list = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body;
    const latest = (name: string) => list.find((p) => p.name === name)!.versions.find((v) => v.is_latest)!.id;
    trimming = latest('Adapter Trimming');
    qc = latest('FASTQ Quality Control');
    slug = (await kit.api<{ slug: string }>('/api/groups/', alice.token, { body: { name: 'Bench' } })).body.slug;
    await kit.api(`/api/groups/${slug}/invite/`, alice.token, {
      body: { emails: ['bob@lab.example'], permission: 'view' },
    });
    expect((await kit.api(`/api/groups/${slug}/accept/`, bob.token, { method: 'POST' })).status).toBe(200);
    read1 = await kit.upload(alice.token, 'alice_R1.fastq', fastqText({ reads: 200, seed: 21 }));
    sample = await kit.createSample(alice.token, 'alice1', read1);
    const shared = await kit.api(`/api/samples/${sample}/share/`, alice.token, {
      body: { group: slug, permission: 'view' },
    });
    expect(shared.status).toBe(200);
  });
  afterAll(async () => {
    await kit.stop();
  });

  const download = (id: number, token: string) =>
    kit.service.api(`/api/data/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
  const executions = async (token: string) => (await kit.api<{ count: number }>('/api/executions/', token)).body.count;

  it('row 10: a view on a sample is not a view on its reads: no run reads them, over REST or GraphQL', async () => {
    expect((await kit.api(`/api/samples/${sample}`, bob.token)).status).toBe(200);
    expect((await download(read1, bob.token)).status).toBe(404);
    const before = await executions(bob.token);
    const rest = await kit.run(bob.token, trimming, { samples: [sample] });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({
      code: 'INVALID_SAMPLES',
      invalid_samples: [{ sample_id: sample, reason: expect.stringMatching(/not shared with you/) }],
    });
    const gql = await kit.api<{ errors: Array<{ extensions: Record<string, unknown> }> }>('/api/graphql', bob.token, {
      body: {
        query: 'mutation ($input: RunPipelineInput) { runPipeline(input: $input) { id } }',
        variables: { input: { pipelineVersionId: String(trimming), samples: [String(sample)] } },
      },
    });
    expect(gql.body.errors[0]!.extensions).toMatchObject({ code: 'INVALID_SAMPLES' });
    expect(await executions(bob.token)).toBe(before);
    expect((await kit.service.api('/api/health')).status).toBe(200);
  });

  it("row 12 and chaining: bodies list only what the caller may open; a shared run's outputs stay unread", async () => {
    // Alice trims her own sample and shares the execution (not its outputs) with the group.
    const run = await kit.run(alice.token, trimming, { samples: [sample] });
    expect(run.status).toBe(201);
    const done = (await kit.waitFor(alice.token, run.body.id as number, ['completed'], 120_000)) as Exec;
    const outputs = done.outputs!;
    expect(outputs.length).toBeGreaterThan(0);
    await kit.api(`/api/executions/${done.id}/share/`, alice.token, { body: { group: slug, permission: 'view' } });

    // Alice's sample body lists her reads and outputs; Bob's lists neither.
    const mine = (await kit.api<Sample>(`/api/samples/${sample}`, alice.token)).body;
    expect(mine.data.map((d) => d.id)).toEqual(expect.arrayContaining([read1, ...outputs.map((o) => o.id)]));
    const his = (await kit.api<Sample>(`/api/samples/${sample}`, bob.token)).body;
    expect(his.data).toEqual([]);
    const seen = (await kit.api<Exec>(`/api/executions/${done.id}`, bob.token)).body;
    expect(seen.status).toBe('completed');
    expect(seen.outputs).toEqual([]);
    for (const o of outputs) expect((await download(o.id, bob.token)).status).toBe(404);

    // Chaining on the shared execution would read its outputs: refused.
    const chained = await kit.run(bob.token, qc, { upstream_execution: done.id });
    expect(chained.status).toBe(400);
    expect(chained.body).toMatchObject({
      code: 'INVALID_SAMPLES',
      invalid_samples: [
        { sample_id: sample, reason: expect.stringMatching(/upstream outputs .* not shared with you/) },
      ],
    });

    // Once Alice shares the reads, Bob may run on them; his outputs never appear in her body.
    await kit.api(`/api/data/${read1}/share/`, alice.token, { body: { group: slug, permission: 'view' } });
    const bobs = await kit.run(bob.token, trimming, { samples: [sample] });
    expect(bobs.status).toBe(201);
    const bobDone = (await kit.waitFor(bob.token, bobs.body.id as number, ['completed'], 120_000)) as Exec;
    const bobOutputs = bobDone.outputs!.map((o) => o.id);
    expect(bobOutputs.length).toBeGreaterThan(0);
    const aliceView = (await kit.api<Sample>(`/api/samples/${sample}`, alice.token)).body;
    for (const id of bobOutputs) expect(aliceView.data.map((d) => d.id)).not.toContain(id);
    const bobView = (await kit.api<Sample>(`/api/samples/${sample}`, bob.token)).body;
    expect(bobView.data.map((d) => d.id)).toEqual(expect.arrayContaining([read1, ...bobOutputs]));
  });

  it('row 11: a re-sent chunk after the share was revoked never answers with the other user record', async () => {
    const bytes = Buffer.from(fastqText({ reads: 100, seed: 33 }));
    const theirs = await kit.upload(alice.token, 'shared.fastq', bytes);
    await kit.api(`/api/data/${theirs}/share/`, alice.token, { body: { group: slug, permission: 'view' } });
    const half = Math.ceil(bytes.length / 2);
    const parts = [bytes.subarray(0, half), bytes.subarray(half)];
    const base = { filename: 'mine.fastq', total_chunks: 2, file_id: 'dup-after-revoke', total_size: bytes.length };
    expect((await postChunk(kit.service.url, bob.token, { ...base, chunk: 0 }, parts[0]!)).status).toBe(200);
    const dup = await postChunk(kit.service.url, bob.token, { ...base, chunk: 1, checksum: sha256(bytes) }, parts[1]!);
    expect(dup).toMatchObject({ status: 409, body: { code: 'DUPLICATE_FILE', data_id: theirs } });

    const revoked = await kit.service.api(`/api/data/${theirs}/share/${slug}/`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(revoked.status).toBe(200);
    const again = await postChunk(kit.service.url, bob.token, { ...base, chunk: 0 }, parts[0]!);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(JSON.stringify(again.body)).not.toContain('shared.fastq');
    expect(again.body.id).toBeUndefined();
    // Sending the file again stores Bob's own copy; nothing of Alice's record reaches him.
    expect((await postChunk(kit.service.url, bob.token, { ...base, chunk: 0 }, parts[0]!)).status).toBe(200);
    const own = await postChunk(kit.service.url, bob.token, { ...base, chunk: 1, checksum: sha256(bytes) }, parts[1]!);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ filename: 'mine.fastq', owner: 'bob', checksum: sha256(bytes) });
    expect(own.body.id).not.toBe(theirs);
    expect((await download(theirs, bob.token)).status).toBe(404);
  });
});
