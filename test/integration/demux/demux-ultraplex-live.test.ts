/**
 * The live comparison: when an `ultraplex` executable is on PATH (docs/instruments.md,
 * "Ultraplex", says how it was built here), it and `laneway demux` read the same generated lanes
 * of Ultraplex's 5'+3' design; every sample gets the same reads, by read id, and Ultraplex's
 * counts are still the recorded ones (a changed Ultraplex or generator shows here first).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { lanewayOnCase, ULTRAPLEX_CASES, ultraplexReadIds } from './ultraplex-cases';

const found = spawnSync('ultraplex', ['--version'], { encoding: 'utf8' });
const skip = found.error ? 'no ultraplex executable on PATH' : null;

/** Read ids per sample in Laneway's output (the name up to the UMI Laneway appends after `_`). */
function lanewayReadIds(out: string): Record<string, string[]> {
  const ids: Record<string, string[]> = {};
  for (const f of readdirSync(out).filter((n) => n.endsWith('.fastq.gz'))) {
    const lines = gunzipSync(readFileSync(join(out, f)))
      .toString('latin1')
      .split('\n');
    const list: string[] = [];
    for (let i = 0; i + 1 < lines.length; i += 4) list.push(lines[i]!.slice(1).split(/[\s_]/)[0]!);
    ids[f.slice(0, -'.fastq.gz'.length)] = list.sort();
  }
  return ids;
}

describe.skipIf(skip !== null)(`laneway demux and live Ultraplex${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  for (const [i, c] of ULTRAPLEX_CASES.entries()) {
    it(c.title, async () => {
      const d = join(dir.path, `case${i}`);
      const { lane, out, run } = await lanewayOnCase(d, c);
      expect(run.code, run.stderr).toBe(0);
      const up = join(d, 'ultraplex');
      execFileSync('ultraplex', ['-i', lane.read1, '-b', lane.ultraplexCsv, '-d', up, '-o', 'u', ...c.ultraplexArgs], {
        stdio: 'ignore',
      });
      const theirs = ultraplexReadIds(up);
      expect(Object.fromEntries(Object.entries(theirs).map(([k, v]) => [k, v.length]))).toEqual(c.recorded);
      expect(lanewayReadIds(out)).toEqual(theirs);
    });
  }
});
