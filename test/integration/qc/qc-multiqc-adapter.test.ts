/**
 * The fastp-layout JSON carries `adapter_cutting`, so Debian's MultiQC (its fastp module) shows
 * the "% Adapter" general-statistics column for Laneway's QC: the share of reads in which a
 * known adapter's probe was found, counted here independently on the file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fastpJson } from '../../../src/service/tools/qc/qc-fastp-json';
import { runQc } from '../../../src/service/tools/qc/qc-run';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-qc-multiqc-');
afterAll(() => dir.remove());

describe('MultiQC reads the adapter share from the fastp-layout JSON', () => {
  it('shows % Adapter per sample, equal to the reads carrying an adapter', async () => {
    const inputs = join(dir.path, 'in');
    mkdirSync(inputs);
    const expected: Record<string, number> = {};
    for (const [name, rate] of [
      ['with_adapters', 0.3],
      ['clean', 0],
    ] as const) {
      const text = fastqText({
        reads: 1000,
        length: 100,
        seed: name.length,
        quality: [30, 40],
        ...(rate ? { adapter: { sequence: 'AGATCGGAAGAGCACACGTCTGAACTCCAGTCA', rate } } : {}),
      });
      const path = join(inputs, `${name}.fq`);
      writeFileSync(path, text);
      const seqs = text.split('\n').filter((_, i) => i % 4 === 1);
      // Reads with the Illumina universal adapter's probe (the generator writes no other adapter).
      expected[name] = (100 * seqs.filter((s) => s.includes('AGATCGGAAGAG')).length) / seqs.length;
      const json = fastpJson(name, name, [await runQc(path)]);
      expect(json.adapter_cutting.read1_adapter_sequence).toBe(rate ? 'AGATCGGAAGAG' : 'unspecified');
      writeFileSync(join(inputs, `${name}.fastp.json`), JSON.stringify(json));
    }
    expect(expected.with_adapters).toBeGreaterThan(20);
    const out = join(dir.path, 'report');
    execFileSync('multiqc', ['-f', '-q', '-m', 'fastp', '-o', out, inputs], { stdio: 'ignore' });
    const table = readFileSync(join(out, 'multiqc_data', 'multiqc_general_stats.txt'), 'utf8')
      .trim()
      .split('\n');
    const header = table[0]!.split('\t');
    const col = header.findIndex((h) => /pct_adapter/.test(h));
    expect(col, header.join(' ')).toBeGreaterThan(0);
    for (const line of table.slice(1)) {
      const cells = line.split('\t');
      expect(Number(cells[col])).toBeCloseTo(expected[cells[0]!]!, 6);
    }
    expect(table).toHaveLength(3);
  });
});
