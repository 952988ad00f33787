/**
 * Trimming equals Debian's cutadapt where the semantics match: `-a ADAPTER -q 20 -m 20
 * --no-indels` (and `-A`/`-p` for pairs): the same read counts written and too short, the same
 * bases, and every read trimmed to the same sequence and quality.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runTrim, type ResolvedAdapter } from '../../../src/service/engines/trim/trim-run';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-trim-cutadapt-');
afterAll(() => dir.remove());

const UNIVERSAL = 'AGATCGGAAGAGCACACGTCTGAACTCCAGTCA';
const READ2 = 'AGATCGGAAGAGCGTCGTGTAGGGAAAGAGTGT';
const given = (sequence: string): ResolvedAdapter => ({ name: 'custom', sequence, source: 'given' });

function records(path: string): Map<string, string> {
  const raw = readFileSync(path);
  const lines = (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('latin1').split('\n');
  const out = new Map<string, string>();
  for (let i = 0; i + 3 < lines.length; i += 4) out.set(lines[i]!, `${lines[i + 1]}\n${lines[i + 3]}`);
  return out;
}

interface CutadaptJson {
  read_counts: {
    input: number;
    output: number;
    filtered: { too_short: number };
    read1_with_adapter: number;
    read2_with_adapter: number | null;
  };
  basepair_counts: { input: number; quality_trimmed: number; output: number };
}

function cutadapt(args: string[]): CutadaptJson {
  const json = join(dir.path, `cutadapt-${Math.random().toString(36).slice(2)}.json`);
  execFileSync('cutadapt', ['-q', '20', '-m', '20', '--no-indels', '-j', '1', '--json', json, ...args], {
    stdio: 'ignore',
  });
  return JSON.parse(readFileSync(json, 'utf8')) as CutadaptJson;
}

const base = { qualityCutoff: 20, minLength: 20, errorRate: 0.1, minOverlap: 3 };

describe('trimming equals cutadapt', () => {
  it('single-end, gzip in and out', async () => {
    const input = join(dir.path, 'se.fq.gz');
    writeFileSync(
      input,
      gzipSync(
        fastqText({
          reads: 4000,
          length: [20, 151],
          seed: 31,
          nRate: 0.01,
          lowQualityTails: true,
          quality: [15, 41],
          adapter: { sequence: UNIVERSAL, rate: 0.5 },
        }),
      ),
    );
    const ref = cutadapt(['-a', UNIVERSAL, '-o', join(dir.path, 'se.cutadapt.fq.gz'), input]);
    const ours = await runTrim({
      ...base,
      read1: input,
      out1: join(dir.path, 'se.ours.fq.gz'),
      adapter1: given(UNIVERSAL),
      adapter2: null,
    });
    expect(ours.reads.input).toBe(ref.read_counts.input);
    expect(ours.reads.written).toBe(ref.read_counts.output);
    expect(ours.reads.too_short).toBe(ref.read_counts.filtered.too_short);
    expect(ours.reads.with_adapter_read1).toBe(ref.read_counts.read1_with_adapter);
    expect(ours.bases.input).toBe(ref.basepair_counts.input);
    expect(ours.bases.quality_trimmed).toBe(ref.basepair_counts.quality_trimmed);
    expect(ours.bases.written).toBe(ref.basepair_counts.output);
    expect(records(join(dir.path, 'se.ours.fq.gz'))).toEqual(records(join(dir.path, 'se.cutadapt.fq.gz')));
  });

  it('paired-end, pairs kept in step', async () => {
    const r1 = join(dir.path, 'pe_R1.fq');
    const r2 = join(dir.path, 'pe_R2.fq');
    writeFileSync(
      r1,
      fastqText({
        reads: 3000,
        length: [40, 150],
        seed: 41,
        lowQualityTails: true,
        quality: [15, 41],
        adapter: { sequence: UNIVERSAL, rate: 0.4 },
      }),
    );
    writeFileSync(
      r2,
      fastqText({
        reads: 3000,
        length: [40, 150],
        seed: 42,
        lowQualityTails: true,
        quality: [15, 41],
        adapter: { sequence: READ2, rate: 0.4 },
      }),
    );
    const ref = cutadapt([
      '-a',
      UNIVERSAL,
      '-A',
      READ2,
      '-o',
      join(dir.path, 'c1.fq'),
      '-p',
      join(dir.path, 'c2.fq'),
      r1,
      r2,
    ]);
    const ours = await runTrim({
      ...base,
      read1: r1,
      read2: r2,
      out1: join(dir.path, 'o1.fq'),
      out2: join(dir.path, 'o2.fq'),
      adapter1: given(UNIVERSAL),
      adapter2: given(READ2),
    });
    expect(ours.reads.written).toBe(ref.read_counts.output);
    expect(ours.reads.too_short).toBe(ref.read_counts.filtered.too_short);
    expect(ours.reads.with_adapter_read2).toBe(ref.read_counts.read2_with_adapter);
    expect(ours.bases.written).toBe(ref.basepair_counts.output);
    expect(records(join(dir.path, 'o1.fq'))).toEqual(records(join(dir.path, 'c1.fq')));
    expect(records(join(dir.path, 'o2.fq'))).toEqual(records(join(dir.path, 'c2.fq')));
    expect(records(join(dir.path, 'o1.fq')).size).toBe(records(join(dir.path, 'o2.fq')).size);
  });

  it('refuses pairs whose files have different read counts', async () => {
    const r1 = join(dir.path, 'uneven_R1.fq');
    const r2 = join(dir.path, 'uneven_R2.fq');
    writeFileSync(r1, fastqText({ reads: 50, length: 60, seed: 1 }));
    writeFileSync(r2, fastqText({ reads: 49, length: 60, seed: 2 }));
    await expect(
      runTrim({
        ...base,
        read1: r1,
        read2: r2,
        out1: join(dir.path, 'u1.fq'),
        out2: join(dir.path, 'u2.fq'),
        adapter1: null,
        adapter2: null,
      }),
    ).rejects.toThrow(/uneven_R1\.fq has more reads than uneven_R2\.fq/);
  });
});
