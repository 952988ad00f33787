/**
 * `LANEWAY_DEMUX_TIMES=1 laneway demux` notes where a run's time goes (phase-times.ts, for the
 * fixed-cost work in docs/benchmarks.md): every phase once, in order, at times that never go
 * back; and the outputs are the bytes of a run without it.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliToEnd } from '../../helpers/cli';
import { designSheetCsv, generateDesignLane } from '../../helpers/design-lane-generator';
import { tempDir } from '../../helpers/temp';

const PHASES = [
  'arguments',
  'sheet read',
  'placement chosen',
  'first read',
  'last read',
  'outputs closed',
  'demultiplexed',
  'exit',
];

describe('laneway demux phase times', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('prints each phase in order with its elapsed and CPU time, and writes the same bytes', async () => {
    const lane = generateDesignLane({
      dir: dir.path,
      kind: 'single-index-reads',
      reads: 2000,
      samples: 4,
      readLength: 100,
      indexInHeader: true,
      seed: 2134,
    });
    const sheet = join(dir.path, 'sheet.csv');
    writeFileSync(sheet, designSheetCsv(lane));
    const run = (out: string, env: Record<string, string>) =>
      runCliToEnd(['demux', '--sheet', sheet, '--input', lane.read1, '--out', join(dir.path, out)], env);
    const plain = await run('plain', {});
    const timed = await run('timed', { LANEWAY_DEMUX_TIMES: '1' });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('');
    expect(timed.code).toBe(0);
    const line = /^demux times \(ms since start \/ CPU ms\): (.*)$/m.exec(timed.stderr);
    expect(line, timed.stderr).not.toBeNull();
    const marks = line![1]!.split(' | ').map((m) => {
      const at = /^(.+) (\d+)\/(\d+)$/.exec(m);
      expect(at, m).not.toBeNull();
      return { name: at![1], ms: Number(at![2]), cpu: Number(at![3]) };
    });
    expect(marks.map((m) => m.name)).toEqual(PHASES);
    for (let i = 1; i < marks.length; i++) {
      expect(marks[i]!.ms).toBeGreaterThanOrEqual(marks[i - 1]!.ms);
      expect(marks[i]!.cpu).toBeGreaterThanOrEqual(marks[i - 1]!.cpu);
    }
    const fastq = readdirSync(join(dir.path, 'plain')).filter((f) => f.endsWith('.fastq'));
    expect(fastq.length).toBe(5); // four samples and Undetermined
    expect(readdirSync(join(dir.path, 'timed')).filter((f) => f.endsWith('.fastq'))).toEqual(fastq);
    for (const f of fastq) {
      expect(readFileSync(join(dir.path, 'timed', f)).equals(readFileSync(join(dir.path, 'plain', f))), f).toBe(true);
    }
  });
});
