/**
 * Conformance with Flow's real client: the vendored, unmodified flowbio (v2 client and CLI)
 * drives Laneway's /flow/api mount on a real service (FLOW-WIRE.md P1 and P2 journeys). Skips,
 * saying why, where the vendored client or Debian's python3-venv is absent.
 *
 * The CLI signs in with an access token from /flow/api/login (FLOW_API_TOKEN) in most journeys,
 * and with a long-lived API key, as Flow's CLI normally does, read from the file flowbio 0.9.0
 * reads by default (`~/.config/flow/api-token`, cli/_auth.py DEFAULT_TOKEN_FILE).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePair, writeReads, writeWarningLane } from '../../helpers/flow/flow-fixtures';
import { flowbioUnavailable, flowbioVenv, type FlowbioEnv, runToEnd, type Ran } from '../../helpers/flow/flowbio-venv';
import { startResendProxy } from '../../helpers/flow/resend-proxy';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { call, setupAdmin, type Session } from '../identity/helpers';

const SCRIPTS = resolve(__dirname, '../../fixtures/flowbio');
const PASSWORD = 'correct horse';
const skip = flowbioUnavailable();

describe.skipIf(skip !== null)(`flowbio against /flow/api${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let service: TestService;
  let admin: Session;
  let py: FlowbioEnv;
  let base: string;
  let token: string;
  const dir = tempDir('laneway-flowbio-');
  const env = () => ({ FLOWBIO_USERNAME: 'admin', FLOWBIO_PASSWORD: PASSWORD, HOME: dir.path });

  /** A v2 journey of journeys.py; its JSON answer. */
  async function journey<T>(name: string, args: string[], url = base): Promise<T> {
    const r = await runToEnd([py.python, join(SCRIPTS, 'journeys.py'), name, url, ...args], env());
    if (r.code !== 0) throw new Error(`journey ${name} exited ${r.code}:\n${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  }

  /** The CLI, unmodified, with a token (or none). */
  function cli(args: string[], withToken: string | null = token): Promise<Ran> {
    const extra: Record<string, string> = { ...env(), FLOW_API_URL: base };
    if (withToken !== null) extra.FLOW_API_TOKEN = withToken;
    return runToEnd([...py.cli, '--json', '--no-progress', ...args], extra);
  }

  // Building the venv runs pip against the local package index once per machine (then cached).
  beforeAll(async () => {
    py = flowbioVenv();
    service = await startTestService();
    admin = await setupAdmin(service);
    base = `${service.url}/flow/api`;
    const res = await call(service, 'POST', '/flow/api/login', { body: { username: 'admin', password: PASSWORD } });
    token = res.body.token as string;
  }, 240_000);

  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it('signs in with a password (v2), reads /me, and refreshes a refused token from the cookie', async () => {
    const { me, after_refresh } = await journey<Record<string, Record<string, unknown>>>('login', []);
    expect(me).toMatchObject({ id: String(admin.id), username: 'admin', is_admin: true, can_run_pipelines: true });
    expect(after_refresh).toEqual(me);
  });

  it('signs in with a password through the CLI prompt; a wrong password exits 5', async () => {
    const tty = [py.python, join(SCRIPTS, 'tty_cli.py')];
    const common = ['--base-url', base, '--json', '--login', '--username', 'admin', 'api', 'get', '/me'];
    const ok = await runToEnd([...tty, PASSWORD, ...common], env());
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toContain('"username":"admin"');
    const bad = await runToEnd([...tty, 'not the password', ...common], env());
    expect(bad.code, bad.stdout).toBe(5);
    expect(bad.stdout).toContain('Invalid credentials');
  });

  it('signs the CLI in with an API key from ~/.config/flow/api-token; a revoked key exits 3', async () => {
    const made = await call(service, 'POST', '/api/api-keys', { token: admin.token, body: { name: 'flowbio CLI' } });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    // Its own home: the other journeys' HOME has no token file (anonymous calls must stay so).
    const home = tempDir('laneway-flowbio-home-');
    try {
      mkdirSync(join(home.path, '.config', 'flow'), { recursive: true });
      writeFileSync(join(home.path, '.config', 'flow', 'api-token'), `${key}\n`);
      const keyCli = (args: string[]) =>
        runToEnd([...py.cli, '--json', '--no-progress', ...args], { ...env(), HOME: home.path, FLOW_API_URL: base });
      const me = await keyCli(['api', 'get', '/me']);
      expect(me.code, me.stderr).toBe(0);
      expect(JSON.parse(me.stdout)).toMatchObject({ id: String(admin.id), username: 'admin' });
      const file = writeReads(dir.path, 'keyed.fastq', 40, 13);
      const up = await keyCli(['data', 'upload', file]);
      expect(up.code, up.stderr).toBe(0);
      expect(JSON.parse(up.stdout)).toEqual({ id: expect.stringMatching(/^\d+$/) });
      const revoked = await call(service, 'DELETE', `/api/api-keys/${String(made.body.id)}`, { token: admin.token });
      expect(revoked.status).toBe(200);
      const after = await keyCli(['api', 'get', '/me']);
      expect(after.code, after.stderr).toBe(3);
    } finally {
      home.remove();
    }
  });

  it('uploads data in several chunks, one re-sent after a lost answer, byte-identical on download', async () => {
    const file = writeReads(dir.path, 'chunky.fastq', 300, 11);
    const proxy = await startResendProxy(service.url, '/flow/api/upload', 2);
    try {
      const out = join(dir.path, 'chunky.back');
      const { id } = await journey<{ id: string }>('upload_resend', [file, '7000', out], `${proxy.url}/flow/api`);
      expect(proxy.replaced).toBe(1);
      expect(id).toMatch(/^\d+$/);
      expect(readFileSync(out).equals(readFileSync(file))).toBe(true);
      expect(readFileSync(file).length).toBeGreaterThan(3 * 7000);
    } finally {
      await proxy.close();
    }
  });

  it('uploads data with the CLI: {"id"} on stdout; the same file again is refused as a duplicate (exit 1)', async () => {
    const file = writeReads(dir.path, 'cli_reads.fastq', 50, 12);
    const r = await cli(['data', 'upload', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: expect.stringMatching(/^\d+$/) });
    const again = await cli(['data', 'upload', file]);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toMatchObject({ status_code: 409 });
  });

  it('uploads a paired sample with metadata into a project, and reads it back', async () => {
    const project = await call(service, 'POST', '/api/projects/', { token: admin.token, body: { name: 'Liver' } });
    const { r1, r2 } = writePair(dir.path, 'liver', 120, 21);
    const s = await journey<{ id: string; detail: Record<string, unknown> }>('sample', [
      r1,
      r2,
      String(project.body.id),
    ]);
    expect(s.detail).toMatchObject({
      id: s.id,
      name: 'liver_ctrl_1',
      sample_type: 'Total RNA',
      organism: { id: 'Hs', latin_name: 'Homo sapiens' },
      metadata: { tissue: { value: 'liver' }, strandedness: { value: 'reverse' } },
      project: { id: String(project.body.id), name: 'Liver' },
    });
    const files = (s.detail.filesets as Array<{ data: Array<{ filename: string }> }>)[0]!.data.map((d) => d.filename);
    expect(files).toEqual(['liver_R1.fastq', 'liver_R2.fastq']);
  });

  it('uploads a sample with the CLI', async () => {
    const { r1, r2 } = writePair(dir.path, 'kidney', 40, 22);
    const args = ['samples', 'upload', '--name', 'kidney_1', '--sample-type', 'RNA', '--reads1', r1, '--reads2', r2];
    const r = await cli([...args, '--organism', 'Mm', '--metadata', 'tissue=kidney']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: expect.stringMatching(/^\d+$/) });
  });

  it('uploads an annotation with warnings, then multiplexed R1+R2: the lane gives the samples the sheet names', async () => {
    const lane = writeWarningLane(dir.path);
    const r = await journey<{
      data_ids: string[];
      annotation_id: string;
      warnings: Array<{ row: number; message: string }>;
    }>('multiplexed', [lane.r1, lane.r2, lane.sheet]);
    expect(r.data_ids).toHaveLength(2);
    expect(r.warnings.some((w) => /reverse complement/.test(w.message))).toBe(true);
    // Demultiplexing runs in the background: wait for the lane to finish.
    let lanes: Array<{ status: string; samples: Array<{ name: string; reads: number | null }> }> = [];
    for (;;) {
      lanes = (await call(service, 'GET', '/api/lanes/', { token: admin.token })).body.items as typeof lanes;
      if (lanes.length && ['complete', 'failed'].includes(lanes[0]!.status)) break;
      await new Promise((w) => setTimeout(w, 200));
    }
    expect(lanes[0]!.status).toBe('complete');
    expect(Object.fromEntries(lanes[0]!.samples.map((s) => [s.name, s.reads]))).toEqual(lane.expected);
    const search = await cli(['api', 'get', '/samples/search', '--param', 'count=100']);
    const names = (JSON.parse(search.stdout) as { samples: Array<{ name: string }> }).samples.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(Object.keys(lane.expected)));
  });

  it('refuses a sheet with warnings when the CLI is told to reject them (exit 5)', async () => {
    const lane = writeWarningLane(dir.path, 'lane9', 'R', 321);
    const r = await cli([
      'samples',
      'upload-multiplexed',
      '--reads1',
      lane.r1,
      '--annotation',
      lane.sheet,
      '--reject-warnings',
    ]);
    expect(r.code, r.stderr).toBe(5);
  });

  it('uploads multiplexed reads with the CLI, and fills and uploads a batch sheet from its template', async () => {
    const lane = writeWarningLane(dir.path, 'lane8', 'C', 123);
    const m = await cli([
      'samples',
      'upload-multiplexed',
      '--reads1',
      lane.r1,
      '--reads2',
      lane.r2,
      '--annotation',
      lane.sheet,
    ]);
    expect(m.code, m.stderr).toBe(0);
    expect(JSON.parse(m.stdout)).toMatchObject({ data_ids: [expect.any(String), expect.any(String)] });
    const template = await cli(['samples', 'batch-template', '--sample-type', 'RNA']);
    expect(template.code, template.stderr).toBe(0);
    const columns = (JSON.parse(template.stdout) as Array<{ name: string }>).map((c) => c.name);
    expect(columns).toEqual(expect.arrayContaining(['name', 'reads1', 'reads2', 'organism', 'tissue']));
    const a = writePair(dir.path, 'batch_a', 20, 51);
    const b = writePair(dir.path, 'batch_b', 20, 52);
    const sheet = join(dir.path, 'batch.csv');
    writeFileSync(
      sheet,
      `name,reads1,reads2,organism,tissue\nbatch_a,${a.r1},${a.r2},Hs,liver\nbatch_b,${b.r1},${b.r2},Mm,\n`,
    );
    const batch = await cli(['samples', 'upload-batch', '--sheet', sheet, '--sample-type', 'RNA']);
    expect(batch.code, batch.stderr).toBe(0);
    expect(JSON.parse(batch.stdout)).toMatchObject({ counts: { uploaded: 2, failed: 0, skipped: 0 } });
    const xlsx = join(dir.path, 'template.xlsx');
    const t = await cli(['samples', 'annotation-template', '-o', xlsx]);
    expect(t.code, t.stderr).toBe(0);
    expect(readFileSync(xlsx).subarray(0, 2).toString()).toBe('PK');
  });

  it('answers the lookups', async () => {
    const l = await journey<Record<string, Array<Record<string, unknown>>> & { template_magic: string }>('lookups', []);
    expect(l.types).toEqual(expect.arrayContaining([expect.objectContaining({ identifier: 'Total RNA' })]));
    expect(l.organisms).toEqual(expect.arrayContaining([{ id: 'Hs', name: 'human', latin_name: 'Homo sapiens' }]));
    expect(l.attributes).toEqual(expect.arrayContaining([expect.objectContaining({ identifier: 'tissue' })]));
    expect(l.projects).toEqual([expect.objectContaining({ name: 'Liver', description: '' })]);
    expect(l.template_magic).toBe('504b0304');
  });

  it("runs a pipeline with Flow's body, polls it to OK and downloads its outputs", async () => {
    const samples = await cli(['api', 'get', '/samples/search', '--param', 'name=liver_ctrl_1']);
    const sampleId = (JSON.parse(samples.stdout) as { samples: Array<{ id: string }> }).samples[0]!.id;
    const r = await journey<{
      first_status: string;
      status: string;
      outputs: Array<{ id: string; filename: string; size: number }>;
      downloaded: Record<string, number>;
      sample_data: Array<{ filename: string }>;
    }>('run', [sampleId, 'FASTQ Quality Control']);
    expect(r.first_status).toBe('');
    expect(r.status).toBe('OK');
    expect(r.outputs.map((o) => o.filename)).toEqual(expect.arrayContaining(['liver_ctrl_1_R1.qc.json']));
    for (const o of r.outputs) expect(r.downloaded[o.filename]).toBe(o.size);
    expect(r.sample_data.map((d) => d.filename)).toEqual(
      expect.arrayContaining(['liver_R1.fastq', 'liver_ctrl_1_R1.qc.json']),
    );
  });

  it('gives the exit codes Flow gives for each documented error', async () => {
    const reads = writeReads(dir.path, 'errs.fastq', 10, 31);
    const cases: Array<[string[], string | null, number, RegExp]> = [
      [['api', 'get', '/me'], 'not-a-token', 3, /refused/],
      [['api', 'get', '/me'], null, 3, /not provided/],
      [['api', 'get', '/samples/999999'], token, 4, /Not found/],
      [['api', 'get', '/v2/sample-imports/1'], token, 5, /not supported/],
      [['data', 'upload', reads, '--filename', 'with space.fastq'], token, 5, /Spaces in filename/],
      [
        ['samples', 'upload', '--name', 'x', '--sample-type', 'Nope', '--reads1', reads],
        token,
        5,
        /Invalid sample type/,
      ],
      [
        ['samples', 'upload', '--name', 'y', '--sample-type', 'RNA', '--reads1', reads, '--organism', 'Zz'],
        token,
        5,
        /organism/,
      ],
    ];
    for (const [args, t, code, message] of cases) {
      const r = await cli(args, t);
      expect({ args, code: r.code }).toEqual({ args, code });
      expect(JSON.stringify((JSON.parse(r.stderr) as { message: unknown }).message)).toMatch(message);
    }
  });
});
