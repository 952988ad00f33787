/**
 * `laneway upload --lane NAME --sheet SHEET FILE`: the CLI's lane path goes through the durable
 * queue and the service's lane checks like every other (issue 19 item 7). A lane whose sample
 * names are already on the service exits 1 naming them, creating nothing; `--ignore-warnings`
 * makes it, without sending the reads again.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliToEnd } from '../../helpers/cli';
import { generateLane } from '../../helpers/fastq-generator';
import { coreSuite } from './core-suite';

const core = coreSuite({ prefix: 'laneway-cli-lane-' });

interface Done {
  event: string;
  jobs: Array<{ state: string }>;
  groups: Array<{ kind: string; name: string; state: string; created_id: number | null; error: string | null }>;
}

const doneOf = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Done;

describe('laneway upload --lane', () => {
  it('creates the lane; the same names again exit 1 naming them; --ignore-warnings makes the lane', async () => {
    const gen = generateLane({ dir: core.root, reads: 800, samples: 3, kind: 'header', seed: 23 });
    const sheet = join(core.root, 'sheet.csv');
    writeFileSync(
      sheet,
      ['Sample Name,Barcode,Organism,Category', ...gen.barcodes.map((b) => `${b.name},${b.barcode},Mus musculus,DNA`)]
        .join('\n')
        .concat('\n'),
    );
    const state = join(core.root, 'state');
    const first = await runCliToEnd(
      ['upload', '--lane', 'CLI lane', '--sheet', sheet, gen.read1, '--state', state, '--json'],
      core.cliEnv(),
    );
    expect(first.code, first.stderr).toBe(0);
    expect(doneOf(first.stdout).groups).toMatchObject([{ kind: 'lane', name: 'CLI lane', state: 'created' }]);

    const again = await runCliToEnd(
      ['upload', '--lane', 'CLI lane 2', '--sheet', sheet, gen.read1, '--state', state, '--json'],
      core.cliEnv(),
    );
    expect(again.code).toBe(1);
    const refused = doneOf(again.stdout).groups[0]!;
    expect(refused.state).toBe('failed');
    expect(refused.error).toMatch(/3 sample name\(s\) are already on the service/);
    expect(refused.error).toMatch(/"S01" is already a sample on the service/);

    const forced = await runCliToEnd(
      ['upload', '--lane', 'CLI lane 2', '--sheet', sheet, gen.read1, '--state', state, '--json', '--ignore-warnings'],
      core.cliEnv(),
    );
    expect(forced.code, forced.stderr).toBe(0);
    const made = doneOf(forced.stdout);
    expect(made.groups).toMatchObject([{ name: 'CLI lane 2', state: 'created' }]);
    expect(made.groups[0]!.created_id).not.toBeNull();

    const usage = await runCliToEnd(['upload', '--lane', 'x', gen.read1, '--state', state], core.cliEnv());
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--lane and --sheet go together/);
  }, 120_000);
});
