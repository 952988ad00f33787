/**
 * Inline demultiplexing throughput, all in one run, every tool's assignments checked against the
 * generator's truth: an inline lane (2,000,000 reads of 150 bp, 24 samples, barcodes of 6, 7 and
 * 8 bases behind 3 UMI bases and before 2, about 2% with one barcode mismatch, 1% with no
 * sample's barcode) through `laneway demux` as a child process against Debian's cutadapt
 * (`-g ^file: -e 1 --no-indels --cores 2`), plain in and out and gz in and out. Index designs
 * (read headers, I1/I2 files) against fastq-multx: demux-index.bench.ts; start-up:
 * demux-start.bench.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANEWAY_BIN } from '../helpers/cli';
import { designSheetCsv, generateDesignLane } from '../helpers/design-lane-generator';
import { cachedLane, disagreements, fresh, stem, timed, toolVersion, type Timed } from './demux-bench-tools';
import type { BenchFigure, Benchmark } from './harness';

export const benchmark: Benchmark = {
  name: 'demultiplexing',
  async run(ctx) {
    const reads = ctx.quick ? 200_000 : 2_000_000;
    const inlineDir = join(ctx.workDir, 'demux-inline');
    mkdirSync(inlineDir, { recursive: true });
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
    ctx.log('checking every read against the truth');
    const ours = (f: string) => stem(f);
    const wrong = {
      lanewayPlain: disagreements(inline, join(inlineDir, 'laneway-plain'), ours),
      lanewayGz: disagreements(inline, join(inlineDir, 'laneway-gz'), ours),
      cutadapt: disagreements(inline, join(inlineDir, 'cutadapt-plain'), (f) =>
        stem(f) === 'unknown' ? 'Undetermined' : stem(f),
      ),
    };
    const size = (dir: string) =>
      readdirSync(dir).reduce((n, f) => n + (f.endsWith('.gz') ? readFileSync(join(dir, f)).length : 0), 0) / 1e6;
    const rate = (t: Timed) => reads / t.seconds;
    const rss = (t: Timed) => `${t.maxRssMb.toFixed(0)} MB`;
    const ca = `cutadapt ${toolVersion('cutadapt', ['--version'])} -g ^file: -e 1 --no-indels --cores 2`;
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
    ];
    if (wrong.lanewayPlain || wrong.lanewayGz) {
      ctx.log(`LANEWAY DISAGREES WITH THE TRUTH: ${JSON.stringify(wrong)}`);
    }
    return figures;
  },
};
