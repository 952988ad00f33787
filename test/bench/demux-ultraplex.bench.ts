/**
 * 5'+3' demultiplexing with the 3' barcode before the adapter (iCLIP), against Ultraplex itself:
 * a lane of Ultraplex's design (test/helpers/ultraplex-lane-generator.ts: 4 `NNNXXXXXNN` 5'
 * barcodes × the same 4 `XXXXXNNN` 3' barcodes, inserts of 0-299 bases, the p3 adapter, 1% of
 * reads with an adapter error), gzip in and out, one mismatch at each end, through `laneway demux`
 * and `ultraplex -t 2` (the machine's two cores). Ultraplex is not packaged anywhere this machine
 * reaches: without an `ultraplex` on PATH (docs/instruments.md, "Ultraplex", says how it was
 * built) the benchmark says so and gives no figure. The notes count the reads the two put in
 * different samples.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LANEWAY_BIN } from '../helpers/cli';
import { generateUltraplexLane } from '../helpers/ultraplex-lane-generator';
import {
  fastqGzReadIds,
  ICLIP_DESIGN,
  ICLIP_LANEWAY_ARGS,
  ICLIP_ULTRAPLEX_ARGS,
  ultraplexReadIds,
} from '../integration/demux/ultraplex-cases';
import { fresh, timed, toolVersion } from './demux-bench-tools';
import type { Benchmark } from './harness';

/** Sample of every read id in Laneway's output folder. */
function lanewaySamples(dir: string): Map<string, string> {
  const of = new Map<string, string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.fastq.gz')))
    for (const id of fastqGzReadIds(join(dir, f))) of.set(id, f.slice(0, -9));
  return of;
}

export const benchmark: Benchmark = {
  name: 'demultiplexing against Ultraplex',
  async run(ctx) {
    if (spawnSync('ultraplex', ['--version']).error) {
      ctx.log('skipped: no ultraplex executable on PATH');
      return [];
    }
    const reads = ctx.quick ? 50_000 : 500_000;
    const dir = join(ctx.workDir, 'demux-ultraplex');
    ctx.log(`generating ${reads} reads (seeded: the same lane every run)`);
    const gen = generateUltraplexLane({
      dir: fresh(join(dir, 'lane')),
      seed: 29,
      reads,
      ...ICLIP_DESIGN,
      adapterErrorFraction: 0.01,
    });
    const up = fresh(join(dir, 'ultraplex'));
    ctx.log('ultraplex -t 2');
    const upArgs = ['-i', gen.read1, '-b', gen.ultraplexCsv, '-d', up, '-o', 'u', '-t', '2', '-l', '0'];
    const tUp = timed('ultraplex', [...upArgs, ...ICLIP_ULTRAPLEX_ARGS, '-ig'], dir);
    const lw = join(dir, 'laneway');
    fresh(lw);
    ctx.log('laneway demux');
    const lwArgs = ['--sheet', gen.sheet, '--input', gen.read1, '--out', lw, ...ICLIP_LANEWAY_ARGS];
    const tLw = timed(process.execPath, [LANEWAY_BIN, 'demux', ...lwArgs], dir);
    const ours = lanewaySamples(lw);
    let differ = 0;
    for (const [sample, ids] of Object.entries(ultraplexReadIds(up))) {
      for (const id of ids) if (ours.get(id) !== sample) differ++;
    }
    return [
      {
        name: "demultiplex 5'+3' (3' barcode before the adapter), gz in and out",
        unit: 'reads/s',
        reference: { tool: `ultraplex ${toolVersion('ultraplex', ['--version'])} -t 2`, value: reads / tUp.seconds },
        ours: reads / tLw.seconds,
        higherIsBetter: true,
        notes: `${reads} reads; reads in a different sample than Ultraplex's: ${differ}; peak RSS laneway ${tLw.maxRssMb.toFixed(0)} MB, ultraplex ${tUp.maxRssMb.toFixed(0)} MB (its main process)`,
      },
    ];
  },
};
