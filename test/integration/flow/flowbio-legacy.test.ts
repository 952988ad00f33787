/**
 * Conformance with Flow's legacy GraphQL client: the vendored, unmodified `flowbio.Client`
 * (FLOW-WIRE.md §6, P3) drives Laneway's /flow/api/graphql on a real service: sign-in and the
 * token re-mint from the refresh cookie, chunked uploads with a byte-identical download and the
 * duplicate refusal, an annotation with warnings then a multiplexed file that becomes a lane, a
 * sample read back, and a run by name and version polled to OK. Skips, saying why, where the
 * vendored client or Debian's python3-venv is absent.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReads, writeWarningLane } from '../../helpers/flow/flow-fixtures';
import { flowbioUnavailable, flowbioVenv, type FlowbioEnv, runToEnd } from '../../helpers/flow/flowbio-venv';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { call, setupAdmin, type Session } from '../identity/helpers';

const SCRIPT = resolve(__dirname, '../../fixtures/flowbio/legacy_journeys.py');
const PASSWORD = 'correct horse';
const skip = flowbioUnavailable();

type GqlErrors = Array<{ message: string; extensions: Record<string, unknown> }>;

describe.skipIf(skip !== null)(`flowbio.Client against /flow/api/graphql${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let service: TestService;
  let admin: Session;
  let py: FlowbioEnv;
  let url: string;
  const dir = tempDir('laneway-flowbio-legacy-');

  async function journey<T>(name: string, args: string[] = []): Promise<T> {
    const r = await runToEnd([py.python, SCRIPT, name, url, ...args], {
      FLOWBIO_USERNAME: 'admin',
      FLOWBIO_PASSWORD: PASSWORD,
      HOME: dir.path,
    });
    if (r.code !== 0) throw new Error(`legacy journey ${name} exited ${r.code}:\n${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  }

  beforeAll(async () => {
    py = flowbioVenv();
    service = await startTestService();
    admin = await setupAdmin(service);
    url = `${service.url}/flow/api/graphql`;
  }, 240_000);

  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it('signs in, re-mints its token from the refresh cookie after 20 minutes, and refuses a wrong password', async () => {
    const r = await journey<{
      user: Record<string, unknown>;
      again: Record<string, unknown>;
      token_changed: boolean;
      wrong_password: GqlErrors;
      anonymous: GqlErrors;
    }>('login');
    expect(r.user).toEqual({ id: String(admin.id), username: 'admin', name: expect.any(String) });
    expect(r.again).toEqual(r.user);
    expect(r.token_changed).toBe(true);
    expect(r.wrong_password[0]).toMatchObject({ message: 'Invalid credentials', extensions: { status: 400 } });
    expect(r.anonymous[0]!.extensions.status).toBe(401);
  });

  it('uploads in chunks through GraphQL multipart requests; the download is byte-identical; the same file again is a duplicate', async () => {
    const file = writeReads(dir.path, 'legacy_reads.fastq', 400, 71);
    const out = join(dir.path, 'legacy_reads.back');
    const r = await journey<{ data: Record<string, unknown>; status: number; duplicate: GqlErrors }>('upload', [
      file,
      '9000',
      out,
    ]);
    expect(readFileSync(file).length).toBeGreaterThan(3 * 9000);
    expect(r.data).toMatchObject({
      filename: 'legacy_reads.fastq',
      filetype: 'fastq',
      size: readFileSync(file).length,
    });
    expect(r.data.owner).toMatchObject({ username: 'admin' });
    expect(r.status).toBe(200);
    expect(readFileSync(out).equals(readFileSync(file))).toBe(true);
    expect(r.duplicate[0]!.extensions).toMatchObject({ status: 409, data_id: Number(r.data.id) });
  });

  it('uploads an annotation (warnings first, then accepted) and one multiplexed file: the lane makes the samples the sheet names', async () => {
    const lane = writeWarningLane(dir.path, 'legacy_lane', 'L', 404);
    // The legacy client uploads one multiplexed file: a single-end sheet naming read 1 only.
    const sheet = join(dir.path, 'legacy_lane_single.csv');
    const rows = readFileSync(lane.sheet, 'utf8').trim().split('\n');
    writeFileSync(sheet, rows.map((line) => line.split(',').slice(0, 5).join(',')).join('\n') + '\n');
    const r = await journey<{
      warnings: GqlErrors;
      annotation: Record<string, unknown>;
      multiplexed: Record<string, unknown>;
    }>('lane', [sheet, lane.r1]);
    const warnings = r.warnings[0]!.extensions.warnings as Array<{ message: string }>;
    expect(warnings.some((w) => /reverse complement/.test(w.message))).toBe(true);
    expect(r.annotation).toMatchObject({ filename: 'legacy_lane_single.csv', filetype: 'annotation' });
    expect(r.multiplexed).toMatchObject({ filename: 'legacy_lane_R1.fastq', filetype: 'fastq' });
    // Demultiplexing runs in the background: wait for the lane to end.
    let lanes: Array<{ status: string; samples: Array<{ name: string; reads: number | null }> }> = [];
    for (;;) {
      lanes = (await call(service, 'GET', '/api/lanes/', { token: admin.token })).body.items as typeof lanes;
      if (lanes.length && ['complete', 'failed'].includes(lanes[0]!.status)) break;
      await new Promise((w) => setTimeout(w, 100));
    }
    expect(lanes[0]!.status).toBe('complete');
    expect(Object.fromEntries(lanes[0]!.samples.map((s) => [s.name, s.reads]))).toEqual(lane.expected);
  });

  it('reads a sample, then runs a pipeline by name and version with sample parameters, polled to OK', async () => {
    const samples = (await call(service, 'GET', '/api/samples/?per_page=100', { token: admin.token })).body
      .items as Array<{
      id: number;
      name: string;
    }>;
    const l01 = samples.find((s) => s.name === 'L01')!;
    const versions = (await call(service, 'GET', '/flow/api/pipelines', { token: admin.token }))
      .body as unknown as Array<{
      subcategories: Array<{ pipelines: Array<{ id: string; name: string }> }>;
    }>;
    const qc = versions
      .flatMap((c) => c.subcategories.flatMap((x) => x.pipelines))
      .find((p) => p.name === 'FASTQ Quality Control')!;
    const detail = (await call(service, 'GET', `/flow/api/pipelines/${qc.id}`, { token: admin.token })).body as {
      versions: Array<{ name: string; nextflow_versions: string[] }>;
    };
    const version = detail.versions[0]!;
    const r = await journey<{
      sample: Record<string, unknown>;
      first_status: string;
      execution: Record<string, unknown>;
      wrong_engine: GqlErrors;
    }>('run', ['FASTQ Quality Control', version.name, version.nextflow_versions[0]!, String(l01.id)]);
    const s = r.sample;
    expect(s).toMatchObject({ id: String(l01.id), name: 'L01', sampleType: 'Total RNA' });
    expect(s.initialData).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ filename: expect.stringMatching(/\.fastq/) }) }),
    ]);
    expect(r.wrong_engine[0]!.extensions.status).toBe(400);
    expect(r.first_status).toBe('');
    expect(r.execution).toMatchObject({
      status: 'OK',
      upstreamSamples: [{ id: String(l01.id), name: 'L01' }],
      pipelineVersion: expect.objectContaining({
        name: version.name,
        pipeline: expect.objectContaining({ name: 'FASTQ Quality Control' }),
      }),
    });
    const outputs = (r.execution.processExecutions as Array<{ downstreamData: Array<{ filename: string }> }>).flatMap(
      (p) => p.downstreamData,
    );
    expect(outputs.map((o) => o.filename)).toEqual(expect.arrayContaining([expect.stringMatching(/\.qc\.json$/)]));
  });
});
