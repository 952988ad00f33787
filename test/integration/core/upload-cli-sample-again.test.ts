/**
 * `laneway upload --sample NAME R1 R2` where read 2 is a copy of read 1: the sample is refused
 * (exit 1) naming both files, and once read 2 is put right the same command makes the sample,
 * sending only read 2 again. Before, the second command found the completed jobs of the refused
 * sample and ended without making it.
 */
import { copyFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliToEnd } from '../../helpers/cli';
import { coreSuite } from './core-suite';
import { sha256Of, writeFastq } from './queue-harness';

const core = coreSuite({ prefix: 'laneway-cli-sample-' });

interface Done {
  jobs: Array<{ state: string; filename: string; deduplicated: boolean; data_id: number | null }>;
  groups: Array<{
    id: number;
    kind: string;
    name: string;
    state: string;
    created_id: number | null;
    error: string | null;
  }>;
}

const doneOf = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Done;

/** The command a lab's script runs for one paired sample, with its own state folder. */
const sampleArgs = (name: string, r1: string, r2: string, state: string) => [
  'upload',
  '--sample',
  name,
  r1,
  r2,
  '--metadata',
  'organism=Homo sapiens',
  '--metadata',
  'category=DNA',
  '--state',
  state,
  '--json',
];

/** Puts other bytes in place of `path`, with a later modification time. */
function putRight(path: string): void {
  writeFastq(path, 300);
  const later = new Date(Date.now() + 5_000);
  utimesSync(path, later, later);
}

describe('laneway upload --sample, refused and asked for again', () => {
  it('refuses a read 2 that is a copy of read 1, then makes the sample once read 2 is put right', async () => {
    const r1 = writeFastq(join(core.root, 'Pair_S1_L001_R1_001.fastq'), 300);
    const r2 = join(core.root, 'Pair_S1_L001_R2_001.fastq');
    copyFileSync(r1, r2);
    const args = sampleArgs('Pair', r1, r2, join(core.root, 'state'));
    const first = await runCliToEnd(args, core.cliEnv());
    expect(first.code).toBe(1);
    const refused = doneOf(first.stdout).groups[0]!;
    expect(refused).toMatchObject({ kind: 'sample', name: 'Pair', state: 'failed', created_id: null });
    expect(refused.error).toMatch(
      /^read 1 \(Pair_S1_L001_R1_001\.fastq\) and read 2 \(Pair_S1_L001_R2_001\.fastq\) have the same contents/,
    );

    putRight(r2);
    expect(sha256Of(r2)).not.toBe(sha256Of(r1));
    const again = await runCliToEnd(args, core.cliEnv());
    expect(again.code, again.stderr).toBe(0);
    const made = doneOf(again.stdout);
    expect(made.groups).toMatchObject([{ kind: 'sample', name: 'Pair', state: 'created' }]);
    expect(made.groups[0]!.created_id).not.toBeNull();
    // Read 1 was not sent again: the record it had; read 2 is a new one.
    const read1Before = doneOf(first.stdout).jobs[0]!.data_id;
    expect(made.jobs.map((j) => [j.filename, j.state, j.deduplicated])).toEqual([
      ['Pair_S1_L001_R1_001.fastq', 'completed', true],
      ['Pair_S1_L001_R2_001.fastq', 'completed', false],
    ]);
    expect(made.jobs[0]!.data_id).toBe(read1Before);
    expect(made.jobs[1]!.data_id).not.toBe(read1Before);
  });

  it('takes up a sample that failed with a file where it stopped, once the file is put right', async () => {
    const r1 = writeFastq(join(core.root, 'Mend_S2_L001_R1_001.fastq'), 300);
    const r2 = join(core.root, 'Mend_S2_L001_R2_001.fastq');
    writeFileSync(r2, 'this is not a fastq file\n');
    const args = sampleArgs('Mend', r1, r2, join(core.root, 'state-mend'));
    const first = await runCliToEnd(args, core.cliEnv());
    expect(first.code).toBe(1);
    const failed = doneOf(first.stdout);
    expect(failed.jobs.map((j) => j.state)).toEqual(['completed', 'failed']);
    expect(failed.groups[0]).toMatchObject({ name: 'Mend', state: 'failed' });

    putRight(r2);
    const again = await runCliToEnd(args, core.cliEnv());
    expect(again.code, again.stderr).toBe(0);
    const made = doneOf(again.stdout);
    // The same group, retried: not a second one.
    expect(made.groups).toMatchObject([{ id: failed.groups[0]!.id, name: 'Mend', state: 'created' }]);
    expect(made.jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
  });
});
