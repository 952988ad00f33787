/**
 * Quality control on a generated 2,000,000-read FASTQ (150 bp), plain and gzip, beside Debian's
 * fastp (`-w 2 -A -Q -L -G`) and FastQC (`-t 2`) in the same run. Ours is the engine the
 * pipeline and `laneway qc` run, with two scanning threads. fastp's counts must match exactly.
 * Each tool runs twice, interleaved, and the faster run counts.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runQc } from '../../src/service/tools/qc/qc-run';
import { prng } from '../helpers/qc-fastq';
import { seconds, type BenchFigure, type Benchmark } from './harness';

const LENGTH = 150;

/** Writes `reads` random 150 bp records with realistic-looking qualities, fast (bytes, not strings). */
async function generate(path: string, reads: number): Promise<void> {
  const rnd = prng(2024);
  const out = createWriteStream(`${path}.part`);
  const bases = Buffer.from('ACGT');
  const perBatch = 10_000;
  for (let done = 0; done < reads; done += perBatch) {
    const n = Math.min(perBatch, reads - done);
    const chunks: Buffer[] = [];
    for (let r = 0; r < n; r++) {
      const header = Buffer.from(`@BENCH:1:FC:1:${done + r + 1} 1:N:0:ACGTACGT\n`);
      const rec = Buffer.allocUnsafe(LENGTH * 2 + 3);
      let bits = 0;
      for (let i = 0; i < LENGTH; i++) {
        if ((i & 15) === 0) bits = (rnd() * 4294967296) >>> 0;
        rec[i] = bases[(bits >>> ((i & 15) * 2)) & 3]!;
      }
      if (rnd() < 0.05) rec[Math.floor(rnd() * LENGTH)] = 78;
      rec[LENGTH] = 10;
      rec[LENGTH + 1] = 43;
      rec[LENGTH + 2] = 10;
      const decay = rnd() * 15;
      for (let i = 0; i < LENGTH; i++) {
        const q = 38 - (decay * i) / LENGTH - rnd() * 12;
        rec[LENGTH + 3 + i] = 33 + Math.max(2, Math.min(41, Math.round(q)));
      }
      chunks.push(header, rec, Buffer.from('\n'));
    }
    if (!out.write(Buffer.concat(chunks))) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  out.end();
  await new Promise<void>((r) => out.on('finish', () => r()));
  renameSync(`${path}.part`, path);
}

interface Counts {
  total_reads: number;
  total_bases: number;
  q20_bases: number;
  q30_bases: number;
  gc_content: number;
}

function fastp(input: string, dir: string): Counts {
  const json = join(dir, 'fastp.json');
  execFileSync('fastp', ['-w', '2', '-A', '-Q', '-L', '-G', '-i', input, '-j', json, '-h', join(dir, 'fastp.html')], {
    stdio: 'ignore',
  });
  return (JSON.parse(readFileSync(json, 'utf8')) as { summary: { before_filtering: Counts } }).summary.before_filtering;
}

function fastqc(input: string, dir: string): void {
  const out = join(dir, 'fastqc');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  execFileSync('fastqc', ['-t', '2', '--noextract', '-q', '-o', out, input], { stdio: 'ignore' });
}

export const benchmark: Benchmark = {
  name: 'quality control',
  async run(ctx) {
    const reads = ctx.quick ? 200_000 : 2_000_000;
    const plain = join(ctx.workDir, `qc-${reads}.fastq`);
    const gz = `${plain}.gz`;
    if (!existsSync(plain)) {
      ctx.log(`generating ${reads} reads of ${LENGTH} bp`);
      await generate(plain, reads);
    }
    if (!existsSync(gz)) {
      ctx.log('compressing with pigz');
      execFileSync('sh', ['-c', `pigz -p 2 -c "${plain}" > "${gz}.part" && mv "${gz}.part" "${gz}"`]);
    }
    const scratch = join(ctx.workDir, 'qc-out');
    mkdirSync(scratch, { recursive: true });
    const figures: BenchFigure[] = [];
    for (const [label, input] of [
      ['plain', plain],
      ['gzip', gz],
    ] as const) {
      // best of two runs each, interleaved, so that a burst of load on a shared machine hits all three alike
      let ref: Counts | undefined;
      let ours: Awaited<ReturnType<typeof runQc>> | undefined;
      let [tFastp, tOurs, tFastqc] = [Infinity, Infinity, Infinity];
      for (let round = 0; round < 2; round++) {
        tFastp = Math.min(tFastp, await seconds(async () => (ref = fastp(input, scratch))));
        tOurs = Math.min(tOurs, await seconds(async () => (ours = await runQc(input, { threads: 2 }))));
        tFastqc = Math.min(tFastqc, await seconds(async () => fastqc(input, scratch)));
      }
      const s = ours!.summary;
      const matched =
        s.total_reads === ref!.total_reads &&
        s.total_bases === ref!.total_bases &&
        s.q20_bases === ref!.q20_bases &&
        s.q30_bases === ref!.q30_bases &&
        Number(s.gc_content.toPrecision(6)) === ref!.gc_content;
      if (!matched)
        throw new Error(
          `counts differ from fastp on ${label}: ours ${JSON.stringify(s)}, fastp ${JSON.stringify(ref)}`,
        );
      const rate = (t: number) => reads / t;
      const note = `${reads} reads; fastp ${tFastp.toFixed(2)} s, laneway ${tOurs.toFixed(2)} s, FastQC ${tFastqc.toFixed(2)} s; counts equal fastp's: ${matched}`;
      ctx.log(note);
      figures.push(
        {
          name: `QC ${label} FASTQ vs fastp -w 2`,
          unit: 'reads/s',
          reference: { tool: 'fastp -w 2 -A -Q -L -G', value: rate(tFastp) },
          ours: rate(tOurs),
          higherIsBetter: true,
          ...(label === 'plain' ? { goal: 1 } : {}),
          notes: note,
        },
        {
          name: `QC ${label} FASTQ vs FastQC`,
          unit: 'reads/s',
          reference: { tool: 'fastqc -t 2', value: rate(tFastqc) },
          ours: rate(tOurs),
          higherIsBetter: true,
          ...(label === 'plain' ? { goal: 3 } : {}),
        },
      );
    }
    rmSync(scratch, { recursive: true, force: true });
    return figures;
  },
};
