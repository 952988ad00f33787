/**
 * Demultiplexing throughput, all in one run, every tool's assignments checked against the
 * generator's truth:
 * - an inline lane (2,000,000 reads of 150 bp, 24 samples, barcodes of 6, 7 and 8 bases behind
 *   3 UMI bases and before 2, about 2% with one barcode mismatch, 1% with no sample's barcode)
 *   through `laneway demux` as a child process against Debian's cutadapt
 *   (`-g ^file: -e 1 --no-indels --cores 2`), plain in and out and gz in and out;
 * - a dual-index lane (2,000,000 reads of 150 bp, 24 samples, i7 and i5 of 8 bases as I1/I2
 *   index-read files, as BCL Convert writes them with --create-fastq-for-index-reads, 2% with
 *   one mismatch, 0.5% index hopping) against Debian's fastq-multx (`-m 1 -d 1`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANEWAY_BIN } from '../helpers/cli';
import { designSheetCsv, generateDesignLane, type DesignLane } from '../helpers/design-lane-generator';
import { compareWithTruth } from '../helpers/fastq-generator';
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

/** Truth check of one tool's output folder; `name` maps its file names to samples. */
function disagreements(lane: DesignLane, dir: string, name: (file: string) => string | null): number {
  const outputs = readdirSync(dir)
    .filter((f) => /\.fastq(\.gz)?$/.test(f) && !f.startsWith('.'))
    .flatMap((f) => {
      const sample = name(f);
      return sample ? [{ sample, path: join(dir, f) }] : [];
    });
  return compareWithTruth(lane.truth, outputs).disagreements;
}

const stem = (f: string) => f.replace(/\.fastq(\.gz)?$/, '');

/** Generates (or reuses) a lane in `dir`; the marker keeps it between runs. */
function cachedLane(dir: string, key: string, make: () => DesignLane): DesignLane {
  const marker = join(dir, 'lane.json');
  if (existsSync(marker)) {
    const cached = JSON.parse(readFileSync(marker, 'utf8')) as DesignLane & { key: string };
    if (cached.key === key && existsSync(cached.truth)) return cached;
  }
  fresh(dir);
  const lane = make();
  writeFileSync(marker, JSON.stringify({ ...lane, key }));
  return lane;
}

function toolVersion(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  const text = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  return /(\d+\.\d+(\.\d+)?)/.exec(text)?.[1] ?? '?';
}

export const benchmark: Benchmark = {
  name: 'demultiplexing',
  async run(ctx) {
    const reads = ctx.quick ? 200_000 : 2_000_000;
    const inlineDir = join(ctx.workDir, 'demux-inline');
    const dualDir = join(ctx.workDir, 'demux-dual');
    mkdirSync(inlineDir, { recursive: true });
    mkdirSync(dualDir, { recursive: true });
    ctx.log(`generating ${reads} reads per lane (cached between runs)`);
    const inline = cachedLane(inlineDir, `mixed5-${reads}`, () =>
      generateDesignLane({
        dir: inlineDir,
        kind: 'mixed5',
        reads,
        samples: 24,
        readLength: 150,
        mismatchFraction: 0.02,
        undeterminedFraction: 0.01,
        seed: 2026,
      }),
    );
    const gz = `${inline.read1}.gz`;
    if (!existsSync(gz)) {
      // The gzip input as a sequencer or bcl-convert would write it (default level).
      const z = spawnSync('sh', ['-c', `pigz -6 -p 2 -c '${inline.read1}' > '${gz}.part' && mv '${gz}.part' '${gz}'`]);
      if (z.status !== 0) throw new Error(`pigz failed: ${z.stderr.toString()}`);
    }
    writeFileSync(join(inlineDir, 'sheet.csv'), designSheetCsv(inline));
    // cutadapt: anchored 5' adapters with N wildcards for the UMI positions.
    writeFileSync(join(inlineDir, 'barcodes.fasta'), inline.samples.map((s) => `>${s.name}\n${s.cell}\n`).join(''));

    const dual = cachedLane(dualDir, `dual-${reads}`, () =>
      generateDesignLane({
        dir: dualDir,
        kind: 'dual-index-reads',
        reads,
        samples: 24,
        readLength: 150,
        mismatchFraction: 0.02,
        undeterminedFraction: 0.01,
        hoppingFraction: 0.005,
        seed: 2027,
      }),
    );
    writeFileSync(join(dualDir, 'sheet.csv'), designSheetCsv(dual));
    // fastq-multx's dual barcodes: id, i7-i5.
    writeFileSync(
      join(dualDir, 'barcodes.txt'),
      dual.samples.map((s) => `${s.name}\t${s.cell.replace('+', '-')}\n`).join(''),
    );

    const node = process.execPath;
    const laneway = (cwd: string, args: string[]) =>
      timed(node, [LANEWAY_BIN, 'demux', '--sheet', 'sheet.csv', '--mismatches', '1', ...args], cwd);
    const cutadapt = (input: string, out: string, ext: string) =>
      timed(
        'cutadapt',
        ['-g', '^file:barcodes.fasta', '-e', '1', '--no-indels', '--cores', '2', '-o', `${out}/{name}${ext}`, input],
        inlineDir,
      );

    ctx.log('cutadapt, plain');
    const caPlain = cutadapt(inline.read1, fresh(join(inlineDir, 'cutadapt-plain')), '.fastq');
    ctx.log('laneway, plain');
    const lwPlain = laneway(inlineDir, ['--input', inline.read1, '--out', fresh(join(inlineDir, 'laneway-plain'))]);
    ctx.log('cutadapt, gz in and out');
    const caGz = cutadapt(gz, fresh(join(inlineDir, 'cutadapt-gz')), '.fastq.gz');
    ctx.log('laneway, gz in and out');
    const lwGz = laneway(inlineDir, ['--input', gz, '--out', fresh(join(inlineDir, 'laneway-gz'))]);
    ctx.log('fastq-multx, dual index from I1/I2 files');
    const fmDir = fresh(join(dualDir, 'fastq-multx'));
    const fm = timed(
      'fastq-multx',
      ['-B', 'barcodes.txt', '-m', '1', '-d', '1', dual.index1!, dual.index2!, dual.read1].concat([
        '-o',
        'n/a',
        '-o',
        'n/a',
        '-o',
        `${fmDir}/%.fastq`,
      ]),
      dualDir,
    );
    ctx.log('laneway, dual index from I1/I2 files');
    const lwDual = laneway(dualDir, [
      '--input',
      dual.read1,
      '--index1',
      dual.index1!,
      '--index2',
      dual.index2!,
      '--out',
      fresh(join(dualDir, 'laneway')),
    ]);

    ctx.log('checking every read against the truth');
    const ours = (f: string) => stem(f);
    const wrong = {
      lanewayPlain: disagreements(inline, join(inlineDir, 'laneway-plain'), ours),
      lanewayGz: disagreements(inline, join(inlineDir, 'laneway-gz'), ours),
      lanewayDual: disagreements(dual, join(dualDir, 'laneway'), ours),
      cutadapt: disagreements(inline, join(inlineDir, 'cutadapt-plain'), (f) =>
        stem(f) === 'unknown' ? 'Undetermined' : stem(f),
      ),
      multx: disagreements(dual, fmDir, (f) => (stem(f) === 'unmatched' ? 'Undetermined' : stem(f))),
    };
    const size = (dir: string) =>
      readdirSync(dir).reduce((n, f) => n + (f.endsWith('.gz') ? readFileSync(join(dir, f)).length : 0), 0) / 1e6;
    const rate = (t: Timed) => reads / t.seconds;
    const rss = (t: Timed) => `${t.maxRssMb.toFixed(0)} MB`;
    const ca = `cutadapt ${toolVersion('cutadapt', ['--version'])} -g ^file: -e 1 --no-indels --cores 2`;
    const multx = `fastq-multx ${toolVersion('fastq-multx', [])} -m 1 -d 1 (I1, I2, R1)`;
    const figures: BenchFigure[] = [
      {
        name: 'demultiplex inline 6-8 bp + UMI, plain in and out',
        unit: 'reads/s',
        reference: { tool: ca, value: rate(caPlain) },
        ours: rate(lwPlain),
        higherIsBetter: true,
        goal: 3,
        notes: `${reads} reads; reads in a wrong sample or missing vs truth: laneway ${wrong.lanewayPlain}, cutadapt ${wrong.cutadapt}; peak RSS laneway ${rss(lwPlain)}, cutadapt ${rss(caPlain)}`,
      },
      {
        name: 'demultiplex inline 6-8 bp + UMI, fastq.gz in and out',
        unit: 'reads/s',
        reference: { tool: ca, value: rate(caGz) },
        ours: rate(lwGz),
        higherIsBetter: true,
        goal: 2,
        notes: `disagreements: laneway ${wrong.lanewayGz}; output gz laneway ${size(join(inlineDir, 'laneway-gz')).toFixed(0)} MB (level 1), cutadapt ${size(join(inlineDir, 'cutadapt-gz')).toFixed(0)} MB; peak RSS laneway ${rss(lwGz)}, cutadapt ${rss(caGz)}`,
      },
      {
        name: 'demultiplex dual index from I1/I2 files, plain',
        unit: 'reads/s',
        reference: { tool: multx, value: rate(fm) },
        ours: rate(lwDual),
        higherIsBetter: true,
        goal: 1,
        notes: `disagreements with truth: laneway ${wrong.lanewayDual}, fastq-multx ${wrong.multx}; peak RSS laneway ${rss(lwDual)}, fastq-multx ${rss(fm)}`,
      },
    ];
    if (wrong.lanewayPlain || wrong.lanewayGz || wrong.lanewayDual) {
      ctx.log(`LANEWAY DISAGREES WITH THE TRUTH: ${JSON.stringify(wrong)}`);
    }
    return figures;
  },
};
