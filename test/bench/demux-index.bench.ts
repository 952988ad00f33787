/**
 * Index demultiplexing against fastq-multx (issue 21 item 3), whole process (wall time around
 * `/usr/bin/time`, peak RSS from it), ours and fastq-multx alternating so that both see the same
 * load, the median of the rounds; every tool's assignments checked against the generator's truth.
 * Lanes of 150 bp reads, 24 samples, indexes of 8 bases, 2% with one mismatch, 1% of no sample,
 * instrument-length read names; 500,000 and 2,000,000 reads (the first is the second's head):
 * - header single index: `@… 1:N:0:ACGTACGT`, as BCL Convert writes it;
 * - header dual index: `@… 1:N:0:ACGTACGT+TTGGCCAA`, 0.5% index hopping;
 * - dual index from I1/I2 files (bcl2fastq's `1:N:0:1` headers), 0.5% index hopping.
 * fastq-multx cannot read an index from the read header: for the header lanes it is given I1
 * (and I2) files the generator writes with the same index bases as the headers (as BCL Convert
 * does with --create-fastq-for-index-reads), which is its fastest way to the same answer.
 * `laneway demux` reads the headers and chooses the placement itself (no --barcodes).
 * Where the machine sets NODE_EXTRA_CA_CERTS, ours is timed without it too (in the notes): every
 * Node process then starts OpenSSL before any code runs, which fastq-multx never pays.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANEWAY_BIN } from '../helpers/cli';
import { designSheetCsv, generateDesignLane, type DesignLane } from '../helpers/design-lane-generator';
import {
  cachedLane,
  disagreements,
  fresh,
  lanePrefix,
  loadAverage,
  median,
  stem,
  timed,
  toolVersion,
  withoutExtraCaCerts,
  type Timed,
} from './demux-bench-tools';
import type { BenchFigure, Benchmark } from './harness';

interface Case {
  name: string;
  lane: DesignLane;
  dir: string;
  reads: number;
  /** Our arguments besides --sheet, --mismatches and --out. */
  ours: string[];
  /** fastq-multx's index files, read first. */
  indexFiles: string[];
}

function makeLane(dir: string, kind: 'single-index-reads' | 'dual-index-reads', header: boolean, reads: number) {
  return cachedLane(dir, `${kind}-${header}-${reads}-v1`, () =>
    generateDesignLane({
      dir,
      kind,
      reads,
      samples: 24,
      readLength: 150,
      mismatchFraction: 0.02,
      undeterminedFraction: 0.01,
      hoppingFraction: kind === 'dual-index-reads' ? 0.005 : 0,
      indexInHeader: header,
      longNames: true,
      seed: header ? 2031 : 2032,
    }),
  );
}

/** Alternating runs of both tools; the median of each, and every output checked once. */
function measure(c: Case, rounds: number, log: (m: string) => void) {
  writeFileSync(join(c.dir, 'sheet.csv'), designSheetCsv(c.lane));
  // fastq-multx's barcodes: id, then i7 or i7-i5.
  writeFileSync(
    join(c.dir, 'barcodes.txt'),
    c.lane.samples.map((s) => `${s.name}\t${s.cell.replace('+', '-')}\n`).join(''),
  );
  const oursDir = join(c.dir, 'laneway');
  const multxDir = join(c.dir, 'fastq-multx');
  const multxArgs = ['-B', 'barcodes.txt', '-m', '1', '-d', '1', ...c.indexFiles, c.lane.read1];
  for (const _ of c.indexFiles) multxArgs.push('-o', 'n/a');
  multxArgs.push('-o', `${multxDir}/%.fastq`);
  const ours: Timed[] = [];
  const multx: Timed[] = [];
  // The same runs without this machine's NODE_EXTRA_CA_CERTS (demux-bench-tools.ts), for the notes.
  const plainEnv = withoutExtraCaCerts();
  const oursPlain: Timed[] = [];
  const oursArgs = [LANEWAY_BIN, 'demux', '--sheet', 'sheet.csv', '--mismatches', '1', ...c.ours, '--out', oursDir];
  const loads: string[] = [loadAverage()];
  for (let i = 0; i < rounds; i++) {
    fresh(multxDir);
    multx.push(timed('fastq-multx', multxArgs, c.dir));
    fresh(oursDir);
    ours.push(timed(process.execPath, oursArgs, c.dir));
    if (plainEnv) {
      fresh(oursDir);
      oursPlain.push(timed(process.execPath, oursArgs, c.dir, plainEnv));
    }
    loads.push(loadAverage());
  }
  log(
    `${c.name}: laneway ${ours.map((t) => t.seconds.toFixed(2)).join(' ')} s, fastq-multx ${multx.map((t) => t.seconds.toFixed(2)).join(' ')} s (load ${loads.join(', ')})`,
  );
  const wrongOurs = disagreements(c.lane, oursDir, stem);
  const wrongMultx = disagreements(c.lane, multxDir, (f) => (stem(f) === 'unmatched' ? 'Undetermined' : stem(f)));
  if (wrongOurs) log(`LANEWAY DISAGREES WITH THE TRUTH on ${c.name}: ${wrongOurs} reads`);
  const secs = (ts: Timed[]) => median(ts.map((t) => t.seconds));
  const rss = (ts: Timed[]) => Math.max(...ts.map((t) => t.maxRssMb)).toFixed(0);
  return {
    ours: c.reads / secs(ours),
    multx: c.reads / secs(multx),
    notes: `median of ${rounds} alternating runs, load ${loads[0]} to ${loads.at(-1)}; reads in a wrong sample or missing vs truth: laneway ${wrongOurs}, fastq-multx ${wrongMultx}; peak RSS laneway ${rss(ours)} MB, fastq-multx ${rss(multx)} MB${
      plainEnv
        ? `; without this machine's NODE_EXTRA_CA_CERTS (OpenSSL started before any code runs) laneway ${Math.round(c.reads / secs(oursPlain))} reads/s, ratio ${(secs(multx) / secs(oursPlain)).toFixed(2)}`
        : ''
    }`,
  };
}

export const benchmark: Benchmark = {
  name: 'demultiplexing header indexes and index reads',
  async run(ctx) {
    const sizes = ctx.quick ? [50_000, 200_000] : [500_000, 2_000_000];
    const largest = sizes.at(-1)!;
    // Five rounds: a lane of 500 k reads takes a quarter of a second, where a shared machine's
    // neighbours move single runs by 10 to 20 ms.
    const rounds = ctx.quick ? 1 : 5;
    const root = join(ctx.workDir, 'demux-index');
    mkdirSync(root, { recursive: true });
    ctx.log(`generating lanes of ${largest} reads (cached between runs)`);
    const lanes = {
      single: makeLane(join(root, 'header-single'), 'single-index-reads', true, largest),
      dual: makeLane(join(root, 'header-dual'), 'dual-index-reads', true, largest),
      files: makeLane(join(root, 'index-files'), 'dual-index-reads', false, largest),
    };
    const multx = `fastq-multx ${toolVersion('fastq-multx', [])} -m 1 -d 1`;
    const figures: BenchFigure[] = [];
    for (const reads of sizes) {
      const at = (lane: DesignLane, name: string) => {
        if (reads === largest) return { lane, dir: join(root, name, 'runs') };
        const dir = join(root, name, `first-${reads}`);
        return { lane: lanePrefix(lane, dir, reads), dir };
      };
      const single = at(lanes.single, 'header-single');
      const dual = at(lanes.dual, 'header-dual');
      const files = at(lanes.files, 'index-files');
      const cases: Array<Case & { reference: string }> = [
        {
          name: `header single index, ${reads} reads`,
          ...single,
          reads,
          ours: ['--input', single.lane.read1],
          indexFiles: [single.lane.index1!],
          reference: `${multx} (I1 file of the same bases, R1)`,
        },
        {
          name: `header dual index, ${reads} reads`,
          ...dual,
          reads,
          ours: ['--input', dual.lane.read1],
          indexFiles: [dual.lane.index1!, dual.lane.index2!],
          reference: `${multx} (I1, I2 files of the same bases, R1)`,
        },
        {
          name: `dual index from I1/I2 files, ${reads} reads`,
          ...files,
          reads,
          ours: ['--input', files.lane.read1, '--index1', files.lane.index1!, '--index2', files.lane.index2!],
          indexFiles: [files.lane.index1!, files.lane.index2!],
          reference: `${multx} (I1, I2, R1)`,
        },
      ];
      for (const c of cases) {
        mkdirSync(c.dir, { recursive: true });
        ctx.log(c.name);
        const m = measure(c, rounds, ctx.log);
        figures.push({
          name: `demultiplex ${c.name}, plain`,
          unit: 'reads/s',
          reference: { tool: c.reference, value: m.multx },
          ours: m.ours,
          higherIsBetter: true,
          goal: 1.5,
          notes: m.notes,
        });
      }
    }
    return figures;
  },
};
