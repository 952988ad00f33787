import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { sha256Of, writeFastq } from './queue-harness';
import { coreSuite } from './core-suite';

const core = coreSuite({ prefix: 'laneway-agent-' });

describe('laneway agent', () => {
  it('uploads a run that arrives in a watched generic folder once it settles, launches its pipeline, then stops on SIGTERM', async () => {
    const watched = join(core.root, 'instrument');
    mkdirSync(watched);
    const env = core.cliEnv();
    const agent = runCli(
      [
        'agent',
        '--watch',
        watched,
        '--kind',
        'generic',
        '--settle-seconds',
        '1',
        '--reconcile-seconds',
        '1',
        '--metadata',
        'organism=Homo sapiens',
        '--metadata',
        'category=DNA',
        '--launch',
        'FASTQ Quality Control',
        '--state',
        join(core.root, 'state'),
        '--json',
      ],
      env,
    );
    agent.child.stdin.end();
    await agent.waitForEvent('started');
    const run = join(watched, 'run_001');
    mkdirSync(run);
    const r1 = writeFastq(join(run, 'Blood_S1_L001_R1_001.fastq.gz'), 300);
    const r2 = writeFastq(join(run, 'Blood_S1_L001_R2_001.fastq.gz'), 300);
    // The agent's own line says so (a 45 s bound on the clock was shorter than a loaded
    // machine's start, upload, settle and launch; the test's timeout bounds it, and an agent
    // that exits first fails it at once with its stderr).
    const [launchedLine] = await agent.waitForLine(/^(?=.*"event":"runs:changed")(?=.*"state":"launched").*$/);
    const registered = JSON.parse(launchedLine) as Record<string, unknown>;
    expect(registered).toMatchObject({ name: 'run_001', kind: 'generic' });
    expect(typeof registered.execution_id).toBe('number');
    const jobs = agent
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event: string; state?: string; path?: string; checksum?: string })
      .filter((e) => e.event === 'uploads:job-changed' && e.state === 'completed');
    expect(Object.fromEntries(jobs.map((j) => [j.path, j.checksum]))).toEqual({
      [r1]: sha256Of(r1),
      [r2]: sha256Of(r2),
    });
    agent.child.kill('SIGTERM');
    expect((await agent.exit).code).toBe(0);
  }, 60_000);
});
