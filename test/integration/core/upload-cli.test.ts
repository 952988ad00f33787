import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliToEnd, type CliProcess } from '../../helpers/cli';
import { sha256Of, writeFastq } from './queue-harness';
import { coreSuite } from './core-suite';

const core = coreSuite({ prefix: 'laneway-cli-upload-' });

interface Done {
  jobs: Array<{ path: string; state: string; data_id: number | null; checksum: string | null }>;
}

async function accessToken(): Promise<string> {
  const res = await core.service.api('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ada', password: 'correct horse' }),
  });
  return ((await res.json()) as { token: string }).token;
}

async function serviceChecksum(id: number): Promise<string> {
  const login = (await (
    await core.service.api('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', password: 'correct horse' }),
    })
  ).json()) as { token: string };
  const res = await core.service.api(`/api/data/${id}`, { headers: { authorization: `Bearer ${login.token}` } });
  return ((await res.json()) as { checksum: string }).checksum;
}

describe('laneway upload', () => {
  it('uploads files and prints what it did; exit codes say what happened', async () => {
    const a = writeFastq(join(core.root, 'cli_a.fastq'), 300);
    const state = join(core.root, 'state-basic');
    const out = await runCliToEnd(['upload', a, '--state', state, '--json'], core.cliEnv());
    expect(out.code, out.stderr).toBe(0);
    const done = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as Done & { event: string };
    expect(done.event).toBe('done');
    expect(await serviceChecksum(done.jobs[0]!.data_id!)).toBe(sha256Of(a));

    expect((await runCliToEnd(['upload', a, '--state', state], { ...core.cliEnv(), LANEWAY_URL: '' })).code).toBe(2);
    expect(
      (await runCliToEnd(['upload', a, '--state', state], { ...core.cliEnv(), LANEWAY_PASSWORD: 'wrong' })).code,
    ).toBe(3);
    expect(
      (await runCliToEnd(['upload', a, '--state', state], { ...core.cliEnv(), LANEWAY_URL: 'http://127.0.0.1:1' }))
        .code,
    ).toBe(4);
    const pw = await runCliToEnd(
      ['upload', a, '--state', state, '--password-stdin', '--json'],
      { ...core.cliEnv(), LANEWAY_PASSWORD: '' },
      'correct horse\n',
    );
    expect(pw.code, pw.stderr).toBe(0);
  }, 60_000);

  it('completes after kill -9 at 10 moments: right sha256 on the service, the sample created once', async () => {
    // 2 x 2 MB under an 8 Mbit/s limit: at least 4 s of transfer, so that the kills that land
    // while bytes flow find bytes flowing. Each kill waits for its moment in the CLI's own events
    // (never a clock: a loaded machine starts a CLI in seconds): at once (during Node's start), after
    // the n-th job change (signed in, jobs queued, hashing, sending) or the n-th progress report.
    const files = [1, 2].map((i) => writeFastq(join(core.root, `KILL_S1_L001_R${i}_001.fastq`), 16000));
    const state = join(core.root, 'state-kill');
    const args = [
      'upload',
      ...files,
      '--sample',
      'KILL',
      '--metadata',
      'organism=Homo sapiens',
      '--metadata',
      'category=DNA',
    ];
    args.push('--state', state, '--json', '--chunk-size', String(32 * 1024), '--concurrency', '2');
    const killArgs = [...args, '--limit-mbps', '8'];
    const moments: Array<[event: 'start' | 'job-changed' | 'progress', n: number]> = [
      ['start', 0],
      ['job-changed', 1],
      ['progress', 1],
      ['progress', 3],
      ['job-changed', 3],
      ['start', 0],
      ['job-changed', 2],
      ['progress', 2],
      ['progress', 5],
      ['job-changed', 4],
    ];
    let killedMidUpload = 0;
    for (const [event, n] of moments) {
      const p = runCli(killArgs, core.cliEnv());
      p.child.stdin.end();
      const reached = event === 'start' || (await afterEvents(p, event, n));
      if (reached && event === 'progress') killedMidUpload++;
      p.child.kill('SIGKILL');
      await p.exit;
    }
    expect(killedMidUpload).toBeGreaterThanOrEqual(3);
    const last = await runCliToEnd(args, core.cliEnv());
    expect(last.code, last.stderr).toBe(0);
    const done = JSON.parse(last.stdout.trim().split('\n').at(-1)!) as Done & {
      groups: Array<{ state: string; created_id: number }>;
    };
    expect(done.jobs).toHaveLength(2);
    for (const job of done.jobs) {
      expect(job.state).toBe('completed');
      expect(job.checksum).toBe(sha256Of(job.path));
      expect(await serviceChecksum(job.data_id!)).toBe(sha256Of(job.path));
    }
    expect(done.groups).toMatchObject([{ state: 'created' }]);
    const token = await accessToken();
    const list = (await (
      await core.service.api('/api/samples/?per_page=100', { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      items: Array<{ id: number; name: string; read1: number; read2: number }>;
    };
    const kill = list.items.filter((s) => s.name === 'KILL');
    expect(kill).toHaveLength(1);
    expect(kill[0]).toMatchObject({
      id: done.groups[0]!.created_id,
      read1: done.jobs[0]!.data_id,
      read2: done.jobs[1]!.data_id,
    });
  }, 240_000);
});

/** Resolves true after the process printed its n-th JSON line of `event`, false if it exits first. */
function afterEvents(p: CliProcess, event: string, n: number): Promise<boolean> {
  const seen = () =>
    p
      .stdout()
      .split('\n')
      .filter((l) => l.includes(`"event":"${event}"`)).length;
  return new Promise((resolve) => {
    // The CLI helper's line reader listens first, so stdout() already holds this chunk's lines.
    const check = () => {
      if (seen() < n) return;
      p.child.stdout.off('data', check);
      resolve(true);
    };
    p.child.stdout.on('data', check);
    void p.exit.then(() => resolve(seen() >= n));
    check();
  });
}
