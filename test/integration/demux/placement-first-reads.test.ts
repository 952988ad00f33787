/**
 * A lane whose barcodes are plain to see is judged on its first 1,000 reads (placement.ts); the
 * judgement must be the one the full 4,000-read sample gives, on every lane of the byte-identity
 * cases (every index design, header fields as instruments write them, inline designs), and a
 * lane that is not plain (a third of its reads of no sample, or a placement that is asked for
 * and wrong) is judged on the full sample as before.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { choosePlacement, FIRST_SAMPLE_READS } from '../../../src/service/tools/demux/placement';
import { planFromRows } from '../../../src/service/tools/demux/plan';
import { SAMPLE_READS } from '../../../src/service/tools/demux/read-sample';
import { generateDesignLane, type DesignLaneSpec } from '../../helpers/design-lane-generator';
import { tempDir } from '../../helpers/temp';
import { GOLDEN_CASES, goldenLane } from './demux-golden-cases';

describe('placement judged on the first reads', () => {
  const dir = tempDir('laneway-first-reads-');
  afterAll(() => dir.remove());
  /** A single-index header lane of its own folder; `spec` changes the defaults. */
  const headerLane = (name: string, spec: Partial<DesignLaneSpec>) => {
    const path = join(dir.path, name);
    mkdirSync(path);
    return generateDesignLane({
      dir: path,
      kind: 'single-index-reads',
      reads: 5000,
      samples: 8,
      readLength: 80,
      indexInHeader: true,
      ...spec,
    });
  };

  it.each(GOLDEN_CASES)('$name: the full sample’s choice', async (c) => {
    const lane = goldenLane(c, join(dir.path, c.name.replace(/\W+/g, '-')));
    const { plan } = planFromRows(lane.rows, { mismatches: c.mismatches, source: c.source });
    const files = c.lane.indexInHeader
      ? { read1: lane.read1, read2: lane.read2 }
      : { read1: lane.read1, read2: lane.read2, index1: lane.index1, index2: lane.index2 };
    const given = c.source !== undefined && c.source !== 'auto';
    const quick = await choosePlacement(plan!, files, { given });
    const full = await choosePlacement(plan!, files, { given, reads: SAMPLE_READS });
    expect(full.detection.sampled_reads).toBe(Math.min(SAMPLE_READS, c.lane.reads));
    expect(quick.detection.chosen.id).toBe(full.detection.chosen.id);
    expect(quick.detection.refusal).toBe(full.detection.refusal);
    expect(quick.plan).toEqual(full.plan);
    // Plain lanes (3 to 5% of reads of no sample) are settled on their first reads; those with
    // odd index fields in a tenth or more of their headers are judged on the full sample.
    const d = quick.detection;
    const plain = d.chosen.fraction >= 0.9 && (!d.runner_up || d.chosen.fraction - d.runner_up.fraction >= 0.2);
    expect(d.sampled_reads).toBe(plain ? FIRST_SAMPLE_READS : full.detection.sampled_reads);
  });

  it('a lane with a third of its reads of no sample is judged on the full sample', async () => {
    const lane = headerLane('a-third-undetermined', { mismatchFraction: 0.02, undeterminedFraction: 0.33, seed: 41 });
    const { plan } = planFromRows(lane.rows, { mismatches: 1 });
    const chosen = await choosePlacement(plan!, { read1: lane.read1 });
    expect(chosen.detection.sampled_reads).toBe(SAMPLE_READS);
    expect(chosen.detection.chosen.id).toBe('header');
    expect(chosen.detection.chosen.fraction).toBeGreaterThan(0.6);
    expect(chosen.detection.chosen.fraction).toBeLessThan(0.75);
  });

  it('a placement asked for where the barcodes are not is refused on the full sample', async () => {
    const lane = headerLane('asked-wrong', { seed: 42 });
    const { plan } = planFromRows(lane.rows, { mismatches: 1, source: 'inline' });
    const chosen = await choosePlacement(plan!, { read1: lane.read1 }, { given: true });
    expect(chosen.detection.sampled_reads).toBe(SAMPLE_READS);
    expect(chosen.detection.refusal).toMatch(/in the read header/);
  });

  it('a lane shorter than the first sample is judged on all of it, once', async () => {
    const lane = headerLane('short', { reads: 600, samples: 4, readLength: 60, seed: 43 });
    const { plan } = planFromRows(lane.rows, { mismatches: 1 });
    const chosen = await choosePlacement(plan!, { read1: lane.read1 });
    expect(chosen.detection.sampled_reads).toBe(600);
    expect(chosen.detection.chosen.id).toBe('header');
  });
});
