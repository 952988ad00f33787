/**
 * Read Alignment 1.3.0 reads each sample's files whole beside the alignment, over real HTTP with
 * Debian's minimap2, samtools and snakemake. minimap2 (2.24 here) reads a gzip file cut off in a
 * copy up to the break, and a pair's longer file only as far as the shorter one (it warns "query
 * files have different number of records; extra records skipped"), and exits 0 both times: 1.2.0
 * completed such runs on part of the reads, which this test shows before 1.3.0 fails them, naming
 * the file and what is wrong. The service compares only the first 10,000 pairs' names when a
 * sample is made, and a single file is not read whole at all.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { plantedGenome } from '../../helpers/planted-genome';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 60_000 });

type Version = { id: number; version: string };
type Execution = {
  status: string;
  error: string | null;
  outputs: Array<{ id: number; filename: string }>;
  logs: Array<{ process: string; message: string }>;
};

const COMPLEMENT: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };

/** Mates as bcl-convert writes them: one name, "1:N:0" and "2:N:0" comments, read 2 the other strand. */
function mates(reads: string): { r1: string; r2: string } {
  const lines = reads.trim().split('\n');
  const r1: string[] = [];
  const r2: string[] = [];
  for (let i = 0; i < lines.length; i += 4) {
    const name = lines[i]!.slice(1);
    const seq = lines[i + 1]!;
    const other = [...seq]
      .reverse()
      .map((c) => COMPLEMENT[c]!)
      .join('');
    r1.push(`@${name} 1:N:0:ACGTACGT`, seq, '+', lines[i + 3]!);
    r2.push(`@${name} 2:N:0:ACGTACGT`, other, '+', lines[i + 3]!);
  }
  return { r1: `${r1.join('\n')}\n`, r2: `${r2.join('\n')}\n` };
}

describe('Read Alignment 1.3.0: read files cut short', () => {
  let kit: Kit;
  let versions: Version[];
  let calling: Version[];
  let reference: number;
  const genome = plantedGenome(33);

  const align = async (version: string, sample: number, pipeline = versions) => {
    const v = pipeline.find((x) => x.version === version)!;
    const run = await kit.run(kit.adminToken, v.id, { samples: [sample], parameters: { reference } });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    return (await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 240_000)) as Execution;
  };
  const flagstatTotal = async (e: Execution, sample: string) => {
    const o = e.outputs.find((x) => x.filename === `${sample}.flagstat.txt`)!;
    const text = await (
      await kit.service.api(`/api/data/${o.id}/download`, { headers: { authorization: `Bearer ${kit.adminToken}` } })
    ).text();
    return Number(/^(\d+) \+ 0 in total/m.exec(text)![1]);
  };

  /** A paired sample from two FASTQ texts, uploaded gzipped under BCL Convert's names. */
  const pairSample = async (name: string, n: number, r1: string, r2: string) =>
    kit.createSample(
      kit.adminToken,
      name,
      await kit.upload(kit.adminToken, `${name}_S${n}_L001_R1_001.fastq.gz`, gzipSync(r1)),
      await kit.upload(kit.adminToken, `${name}_S${n}_L001_R2_001.fastq.gz`, gzipSync(r2)),
    );

  beforeAll(async () => {
    kit = await startKit();
    const pipelines = (await kit.api<Array<{ name: string; versions: Version[] }>>('/api/pipelines', kit.adminToken))
      .body;
    versions = pipelines.find((p) => p.name === 'Read Alignment')!.versions;
    calling = pipelines.find((p) => p.name === 'Variant Calling')!.versions;
    reference = await kit.upload(kit.adminToken, 'genome.fa', genome.fasta);
  });
  afterAll(async () => {
    await kit.stop();
  });

  it("fails a pair whose read 2 ends early, past the pairs the service compares; 1.2.0 aligned only the shorter file's", async () => {
    // The service compares the first 10,000 pairs' names when the sample is made (read-pairing.ts):
    // a read 2 cut after that is only found by reading the files whole.
    const { r1, r2 } = mates(genome.reads(12_000, 'p'));
    const total = r1.trim().split('\n').length / 4;
    // Cut at a record's end, as a copy stopped between two of the writer's blocks can leave it.
    const cut = `${r2
      .trim()
      .split('\n')
      .slice(0, 4 * 11_000)
      .join('\n')}\n`;
    const sample = await pairSample('Pair', 1, r1, cut);

    const old = await align('1.2.0', sample);
    expect(old.status).toBe('completed');
    expect(await flagstatTotal(old, 'Pair')).toBe(2 * 11_000);

    const checked = await align('1.3.0', sample);
    expect(checked.status).toBe('failed');
    expect(checked.error).toBe(
      'Snakemake failed (exit code 1): Error in rule check_reads (check_reads (sample=Pair)): ' +
        `Read 1 of sample Pair has ${total} reads and read 2 has 11000: minimap2 would align only the first 11000 pairs. ` +
        'One file is cut short or they are not mates; upload the complete pair.',
    );
  });

  it('fails a sample whose gzip file was cut off mid-stream', async () => {
    const whole = gzipSync(genome.reads(800, 'g'));
    const sample = await kit.createSample(
      kit.adminToken,
      'Cut',
      await kit.upload(kit.adminToken, 'Cut_S2_L001_R1_001.fastq.gz', whole.subarray(0, Math.floor(whole.length / 2))),
    );
    const old = await align('1.2.0', sample);
    expect(old.status).toBe('completed');
    const checked = await align('1.3.0', sample);
    expect(checked.status).toBe('failed');
    expect(checked.error).toMatch(
      /: Error in rule check_reads \(check_reads \(sample=Cut\)\): Read 1 of sample Cut \(Cut_S2_L001_R1_001\.fastq\.gz\) is not a complete gzip file \(Compressed file ended before the end-of-stream marker was reached\): it was cut off or damaged in a copy; upload the whole file again\.$/,
    );
  });

  it('Variant Calling 2.1.0 fails on those files where it aligns them itself; 2.0.0 called variants on part of them', async () => {
    const whole = gzipSync(genome.reads(800, 'v'));
    const sample = await kit.createSample(
      kit.adminToken,
      'CutVc',
      await kit.upload(
        kit.adminToken,
        'CutVc_S4_L001_R1_001.fastq.gz',
        whole.subarray(0, Math.floor(whole.length / 2)),
      ),
    );
    expect((await align('2.0.0', sample, calling)).status).toBe('completed');
    const checked = await align('2.1.0', sample, calling);
    expect(checked.status).toBe('failed');
    expect(checked.error).toMatch(
      /: Error in rule check_reads \(check_reads \(sample=CutVc\)\): Read 1 of sample CutVc \(CutVc_S4_L001_R1_001\.fastq\.gz\) is not a complete gzip file/,
    );
  });

  it('aligns a complete pair, its read counts in the log of the check', async () => {
    const { r1, r2 } = mates(genome.reads(300, 'w'));
    const sample = await pairSample('Whole', 3, r1, r2);
    const done = await align('1.3.0', sample);
    expect(done.status, JSON.stringify(done.logs.slice(-10))).toBe('completed');
    const n = r1.trim().split('\n').length / 4;
    expect(await flagstatTotal(done, 'Whole')).toBe(2 * n);
    // The check's counts are the workflow's own: not an output of the execution.
    expect(done.outputs.some((o) => o.filename.includes('reads.tsv'))).toBe(false);
    expect(done.logs.some((l) => l.process === 'check_reads (sample=Whole)')).toBe(true);
  });
});
