/** Issue 16 item 12: a run whose bases rarely reach Q30 is flagged in the QC report. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderQcHtml } from '../../../src/service/tools/qc/qc-html';
import { runQc } from '../../../src/service/tools/qc/qc-run';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-qc-q30-');
afterAll(() => dir.remove());

async function reportFor(name: string, quality: [number, number]) {
  const path = join(dir.path, name);
  writeFileSync(path, fastqText({ reads: 300, length: [50, 50], seed: 3, quality }));
  const result = await runQc(path);
  return { html: renderQcHtml(result), q30: result.summary.q30_rate };
}

describe('QC report Q30 flag', () => {
  it('flags a run with few Q30 bases and leaves a good one alone', async () => {
    const poor = await reportFor('poor.fq', [2, 32]);
    expect(poor.q30).toBeLessThan(0.2);
    expect(poor.html).toContain('low: under 80% of bases reach Q30');
    const good = await reportFor('good.fq', [34, 41]);
    expect(good.q30).toBe(1);
    expect(good.html).not.toContain('low: under 80%');
  });
});
