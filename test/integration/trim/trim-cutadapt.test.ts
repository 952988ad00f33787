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
import { sampleAdapters } from '../../../src/service/tools/trim/sample-adapters';
import { trimParameters } from '../../../src/service/tools/trim/trim-parameters';
import { runTrim, type ResolvedAdapter } from '../../../src/service/tools/trim/trim-run';
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

/**
 * Trims a pair both ways, cutadapt (`-a A1 -A A2 -o -p`) and ours, into files named after `tag`;
 * returns both reports and both outputs' records.
 */
async function trimPairBothWays(
  tag: string,
  read1: string,
  read2: string,
  adapter1: ResolvedAdapter,
  adapter2: ResolvedAdapter,
) {
  const [c1, c2, o1, o2] = ['cutadapt_R1', 'cutadapt_R2', 'ours_R1', 'ours_R2'].map((n) =>
    join(dir.path, `${tag}.${n}.fq`),
  );
  const ref = cutadapt(['-a', adapter1.sequence, '-A', adapter2.sequence, '-o', c1!, '-p', c2!, read1, read2]);
  const ours = await runTrim({ ...base, read1, read2, out1: o1!, out2: o2!, adapter1, adapter2 });
  return {
    ref,
    ours,
    cutadapt: { read1: records(c1!), read2: records(c2!) },
    trimmed: { read1: records(o1!), read2: records(o2!) },
  };
}

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
    const {
      ref,
      ours,
      cutadapt: theirs,
      trimmed,
    } = await trimPairBothWays('pe', r1, r2, given(UNIVERSAL), given(READ2));
    expect(ours.reads.written).toBe(ref.read_counts.output);
    expect(ours.reads.too_short).toBe(ref.read_counts.filtered.too_short);
    expect(ours.reads.with_adapter_read2).toBe(ref.read_counts.read2_with_adapter);
    expect(ours.bases.written).toBe(ref.basepair_counts.output);
    expect(trimmed.read1).toEqual(theirs.read1);
    expect(trimmed.read2).toEqual(theirs.read2);
    expect(trimmed.read1.size).toBe(trimmed.read2.size);
  });

  it('paired TruSeq with the default adapters: read 2 is trimmed with the read-2 adapter, record for record equal to cutadapt -a A1 -A A2 --no-indels', async () => {
    const r1 = join(dir.path, 'truseq_R1.fq.gz');
    const r2 = join(dir.path, 'truseq_R2.fq.gz');
    const spec = {
      reads: 5000,
      length: [60, 150] as [number, number],
      lowQualityTails: true,
      quality: [15, 41] as [number, number],
    };
    writeFileSync(r1, gzipSync(fastqText({ ...spec, seed: 51, adapter: { sequence: UNIVERSAL, rate: 0.5 } })));
    writeFileSync(r2, gzipSync(fastqText({ ...spec, seed: 52, adapter: { sequence: READ2, rate: 0.5 } })));
    // What the pipeline resolves when the user leaves both adapter parameters at their defaults.
    const { adapter1, adapter2 } = await sampleAdapters(trimParameters({}), { read1: r1, read2: r2 });
    expect(adapter1?.sequence).toBe(UNIVERSAL);
    expect(adapter2?.sequence).toBe(READ2);
    const { ref, ours, cutadapt: theirs, trimmed } = await trimPairBothWays('truseq', r1, r2, adapter1!, adapter2!);
    expect(ours.reads.with_adapter_read2).toBe(ref.read_counts.read2_with_adapter);
    expect(ours.reads.written).toBe(ref.read_counts.output);
    expect(trimmed.read1).toEqual(theirs.read1);
    expect(trimmed.read2).toEqual(theirs.read2);
    // The failure the issue saw: read 2 keeping the adapter's start after trimming.
    const kept = [...trimmed.read2.values()].filter((r) => r.split('\n')[0]!.includes('AGATCGGAAGAGC'));
    expect(kept).toEqual([]);
  });

  it("takes the sample sheet's AdapterRead1/AdapterRead2 from the sample's metadata, equal to cutadapt with those adapters", async () => {
    const NEXTERA = 'CTGTCTCTTATACACATCT';
    const r1 = join(dir.path, 'nx_R1.fq');
    const r2 = join(dir.path, 'nx_R2.fq');
    const spec = { reads: 3000, length: [40, 150] as [number, number], quality: [20, 41] as [number, number] };
    writeFileSync(r1, fastqText({ ...spec, seed: 61, adapter: { sequence: NEXTERA, rate: 0.5 } }));
    writeFileSync(r2, fastqText({ ...spec, seed: 62, adapter: { sequence: NEXTERA, rate: 0.5 } }));
    const { adapter1, adapter2 } = await sampleAdapters(trimParameters({}), {
      read1: r1,
      read2: r2,
      metadata: { adapter_read1: NEXTERA, adapter_read2: NEXTERA },
    });
    expect(adapter1).toMatchObject({ sequence: NEXTERA, source: 'sample-sheet' });
    expect(adapter2).toMatchObject({ sequence: NEXTERA, source: 'sample-sheet' });
    const { cutadapt: theirs, trimmed } = await trimPairBothWays('nextera', r1, r2, adapter1!, adapter2!);
    expect(trimmed.read1).toEqual(theirs.read1);
    expect(trimmed.read2).toEqual(theirs.read2);
  });

  it('stops with INVALID_PAIRING naming the pair when the reads diverge after the first 10,000 pairs', async () => {
    const r1 = join(dir.path, 'late_R1.fq');
    const r2 = join(dir.path, 'late_R2.fq');
    writeFileSync(r1, fastqText({ reads: 10_005, length: 50, seed: 71 }));
    // Same names for 10,002 pairs, then read 2 carries other reads ("/2" and comments differ too).
    const text2 = fastqText({ reads: 10_005, length: 50, seed: 72 })
      .split('\n')
      .map((line, i) =>
        i % 4 !== 0 || line === ''
          ? line
          : i / 4 < 10_002
            ? `${line.split(' ')[0]}/2 2:N:0:1`
            : `@other${i / 4 + 1} 2:N:0:1`,
      )
      .join('\n');
    writeFileSync(r2, text2);
    await expect(
      runTrim({
        ...base,
        read1: r1,
        read2: r2,
        out1: join(dir.path, 'l1.fq'),
        out2: join(dir.path, 'l2.fq'),
        adapter1: null,
        adapter2: null,
      }),
    ).rejects.toThrow(
      'INVALID_PAIRING: Read 1 and read 2 are not paired: pair 10003 is read10003 in read 1 but other10003 in read 2',
    );
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
