/**
 * Demultiplexing throughput: a generated lane (2,000,000 reads of 150 bp, 24 samples, inline
 * barcodes with UMIs NNNXXXXXXNN, 2% of reads with one barcode mismatch, 1% with no sample's
 * barcode) through `laneway demux` as a child process, against Debian's cutadapt (plain and gz
 * in and out) and fastq-multx (plain; it cannot skip UMIs, so it gets UMI-trimmed reads), all
 * in the same run. Every tool's assignments are compared with the generator's truth.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANEWAY_BIN } from '../helpers/cli';
import { compareWithTruth, generateLane, type GeneratedLane } from '../helpers/fastq-generator';
import type { BenchFigure, Benchmark } from './harness';

interface Timed {
  seconds: number;
  maxRssMb: number;
}

/** Runs a command under /usr/bin/time: wall seconds and peak RSS. */
function timed(cmd: string, args: string[], cwd: string): Timed {
  const stats = join(cwd, '.time');
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', '-o', stats, cmd, ...args], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr.toString().slice(-2000)}`);
  const [secs, kb] = readFileSync(stats, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
  return { seconds: secs!, maxRssMb: kb! / 1024 };
}

function fresh(dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Truth check of one tool's output folder; its own names for unassigned reads map to Undetermined. */
function disagreements(lane: GeneratedLane, dir: string, unassigned: string): number {
  const outputs = readdirSync(dir)
    .filter((f) => /\.fastq(\.gz)?$/.test(f) && !f.startsWith('.'))
    .map((f) => {
      const name = f.replace(/\.fastq(\.gz)?$/, '');
      return { sample: name === unassigned ? 'Undetermined' : name, path: join(dir, f) };
    });
  return compareWithTruth(lane.truth, outputs).disagreements;
}

function prepare(workDir: string, reads: number): GeneratedLane & { gz: string } {
  const marker = join(workDir, 'lane.json');
  if (existsSync(marker)) {
    const cached = JSON.parse(readFileSync(marker, 'utf8')) as GeneratedLane & { gz: string; reads: number };
    if (cached.reads === reads && existsSync(cached.gz) && existsSync(cached.read1UmiTrimmed!)) return cached;
  }
  fresh(workDir);
  const lane = generateLane({
    dir: workDir,
    reads,
    samples: 24,
    kind: 'inline',
    layout: 'NNNXXXXXXNN',
    readLength: 150,
    mismatchFraction: 0.02,
    undeterminedFraction: 0.01,
    seed: 2026,
    umiTrimmedCopy: true,
  });
  // The gzip input as a sequencer or bcl-convert would write it (default level).
  const gz = `${lane.read1}.gz`;
  const z = spawnSync('sh', ['-c', `pigz -6 -p 2 -c '${lane.read1}' > '${gz}'`]);
  if (z.status !== 0) throw new Error(`pigz failed: ${z.stderr.toString()}`);
  writeFileSync(join(workDir, 'barcodes.fasta'), lane.barcodes.map((b) => `>${b.name}\nNNN${b.barcode}NN\n`).join(''));
  writeFileSync(join(workDir, 'barcodes.txt'), lane.barcodes.map((b) => `${b.name}\t${b.barcode}\n`).join(''));
  const sheet = [
    'Sample Name,Barcode,Organism,Category',
    ...lane.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,RNA`),
  ];
  writeFileSync(join(workDir, 'sheet.csv'), `${sheet.join('\n')}\n`);
  const cached = { ...lane, gz, reads };
  writeFileSync(marker, JSON.stringify(cached));
  return cached;
}

export const benchmark: Benchmark = {
  name: 'demultiplexing',
  async run(ctx) {
    const reads = ctx.quick ? 200_000 : 2_000_000;
    const work = join(ctx.workDir, 'demux');
    mkdirSync(work, { recursive: true });
    ctx.log(`generating ${reads} reads (cached between runs)`);
    const lane = prepare(work, reads);
    const node = process.execPath;
    const ours = (input: string, out: string) =>
      timed(
        node,
        [
          LANEWAY_BIN,
          'demux',
          '--sheet',
          'sheet.csv',
          '--input',
          input,
          '--out',
          out,
          '--layout',
          'NNNXXXXXXNN',
          '--mismatches',
          '1',
        ],
        work,
      );
    const cutadapt = (input: string, out: string, ext: string) =>
      timed(
        'cutadapt',
        ['-g', '^file:barcodes.fasta', '-e', '1', '--no-indels', '--cores', '2', '-o', `${out}/{name}${ext}`, input],
        work,
      );

    ctx.log('cutadapt, plain');
    const caPlain = cutadapt(lane.read1, fresh(join(work, 'cutadapt-plain')), '.fastq');
    ctx.log('laneway, plain');
    const lwPlain = ours(lane.read1, fresh(join(work, 'laneway-plain')));
    ctx.log('fastq-multx, plain (UMI-trimmed reads)');
    const fmDir = fresh(join(work, 'fastq-multx'));
    const fm = timed(
      'fastq-multx',
      ['-B', 'barcodes.txt', '-m', '1', '-b', lane.read1UmiTrimmed!, '-o', `${fmDir}/%.fastq`],
      work,
    );
    ctx.log('cutadapt, gz in and out');
    const caGz = cutadapt(lane.gz, fresh(join(work, 'cutadapt-gz')), '.fastq.gz');
    ctx.log('laneway, gz in and out');
    const lwGz = ours(lane.gz, fresh(join(work, 'laneway-gz')));

    ctx.log('checking every read against the truth');
    const wrong = {
      lanewayPlain: disagreements(lane, join(work, 'laneway-plain'), 'Undetermined'),
      lanewayGz: disagreements(lane, join(work, 'laneway-gz'), 'Undetermined'),
      cutadapt: disagreements(lane, join(work, 'cutadapt-plain'), 'unknown'),
      multx: disagreements(lane, fmDir, 'unmatched'),
    };
    const size = (dir: string) =>
      readdirSync(dir).reduce((n, f) => n + (f.endsWith('.gz') ? readFileSync(join(dir, f)).length : 0), 0) / 1e6;
    const rate = (t: Timed) => reads / t.seconds;
    const rss = (t: Timed) => `${t.maxRssMb.toFixed(0)} MB`;
    const figures: BenchFigure[] = [
      {
        name: 'demultiplex plain FASTQ',
        unit: 'reads/s',
        reference: { tool: 'cutadapt 4.2 --cores 2', value: rate(caPlain) },
        ours: rate(lwPlain),
        higherIsBetter: true,
        goal: 2,
        notes: `${reads} reads; disagreements with truth: laneway ${wrong.lanewayPlain}, cutadapt ${wrong.cutadapt}; peak RSS laneway ${rss(lwPlain)}, cutadapt ${rss(caPlain)}`,
      },
      {
        name: 'demultiplex fastq.gz in and out',
        unit: 'reads/s',
        reference: { tool: 'cutadapt 4.2 --cores 2', value: rate(caGz) },
        ours: rate(lwGz),
        higherIsBetter: true,
        goal: 1.5,
        notes: `disagreements: laneway ${wrong.lanewayGz}; output gz laneway ${size(join(work, 'laneway-gz')).toFixed(0)} MB (level 1), cutadapt ${size(join(work, 'cutadapt-gz')).toFixed(0)} MB; peak RSS laneway ${rss(lwGz)}, cutadapt ${rss(caGz)}`,
      },
      {
        name: 'demultiplex plain FASTQ',
        unit: 'reads/s',
        reference: { tool: 'fastq-multx 1.02 -m 1 (UMI-trimmed reads)', value: rate(fm) },
        ours: rate(lwPlain),
        higherIsBetter: true,
        goal: 0.5,
        notes: `disagreements with truth: fastq-multx ${wrong.multx}; peak RSS fastq-multx ${rss(fm)}`,
      },
    ];
    if (wrong.lanewayPlain || wrong.lanewayGz) ctx.log(`LANEWAY DISAGREES WITH THE TRUTH: ${JSON.stringify(wrong)}`);
    return figures;
  },
};
