/**
 * `laneway demux` starts from a cached esbuild bundle of the CLI's sources (src/cli/fast-start.mjs)
 * instead of registering tsx: the bundle is made once, reused while its inputs are unchanged,
 * made again when one changes, and tsx remains the path when it is switched off.
 */
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliToEnd } from '../../helpers/cli';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const manifestFile = join(root, '.cache', 'laneway-cli', 'manifest.json');
const manifest = () =>
  JSON.parse(readFileSync(manifestFile, 'utf8')) as { dir: string; inputs: [string, number, number][] };

describe('laneway demux start-up', () => {
  it('runs from a cached bundle that follows its sources, and from tsx when told to', async () => {
    const first = await runCliToEnd(['demux', '--help']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Usage: laneway demux');
    const made = manifest();
    const inputs = made.inputs.map(([p]) => p);
    expect(inputs).toContain(join(root, 'src', 'cli', 'commands', 'demux.ts'));
    expect(inputs).toContain(join(root, 'src', 'service', 'demux', 'demultiplexer.ts'));

    // Unchanged sources: the same bundle.
    expect((await runCliToEnd(['demux', '--help'])).code).toBe(0);
    expect(manifest().dir).toBe(made.dir);

    // A source saved again (a newer modification time): a new bundle.
    const source = join(root, 'src', 'cli', 'commands', 'demux.ts');
    const before = statSync(source);
    utimesSync(source, before.atime, new Date(before.mtimeMs + 1000));
    const again = await runCliToEnd(['demux', '--help']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(manifest().dir).not.toBe(made.dir);

    const viaTsx = await runCliToEnd(['demux', '--help'], { LANEWAY_NO_FAST_START: '1' });
    expect(viaTsx.code).toBe(0);
    expect(viaTsx.stdout).toBe(first.stdout);
  });
});
