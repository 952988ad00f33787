/**
 * The fixed cost of `laneway demux` (issue 21 item 3): a lane of 10 reads with a single 8-base
 * index in the read headers, from spawn to exit, against `node -e 0` (Node starting and exiting,
 * nothing of ours) and fastq-multx on the same 10 reads (given an I1 file of the same bases), the
 * three interleaved so that they see the same load; medians. Goal: under 0.2 s more than
 * `node -e 0`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ensureCli } from '../../src/cli/build-cli.mjs';
import { LANEWAY_BIN } from '../helpers/cli';
import { designSheetCsv, generateDesignLane } from '../helpers/design-lane-generator';
import { cachedLane, fresh, loadAverage, median } from './demux-bench-tools';
import type { Benchmark } from './harness';

const now = () => Number(process.hrtime.bigint()) / 1e6;

/** ms from spawn to exit (exit code 0 required). */
function toExit(command: string, args: string[], cwd: string): Promise<number> {
  const t0 = now();
  const child = spawn(command, args, { cwd, stdio: 'ignore' });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(now() - t0) : reject(new Error(`${command}: exit ${code}`)))),
  );
}

const GOAL_MS = 200;

export const benchmark: Benchmark = {
  name: 'demultiplexing start-up',
  async run(ctx) {
    await ensureCli();
    const dir = join(ctx.workDir, 'demux-start');
    const lane = cachedLane(dir, 'tiny-v1', () =>
      generateDesignLane({
        dir,
        kind: 'single-index-reads',
        reads: 10,
        samples: 4,
        readLength: 150,
        indexInHeader: true,
        longNames: true,
        seed: 2033,
      }),
    );
    writeFileSync(join(dir, 'sheet.csv'), designSheetCsv(lane));
    writeFileSync(join(dir, 'barcodes.txt'), lane.samples.map((s) => `${s.name}\t${s.cell}\n`).join(''));
    const ours = () =>
      toExit(
        process.execPath,
        [LANEWAY_BIN, 'demux', '--sheet', 'sheet.csv', '--input', lane.read1, '--out', fresh(join(dir, 'laneway'))],
        dir,
      );
    const multx = () =>
      toExit(
        'fastq-multx',
        [
          '-B',
          'barcodes.txt',
          '-m',
          '1',
          lane.index1!,
          lane.read1,
          '-o',
          'n/a',
          '-o',
          `${fresh(join(dir, 'multx'))}/%.fastq`,
        ],
        dir,
      );
    const node = () => toExit(process.execPath, ['-e', '0'], dir);
    // One unmeasured round warms the file cache for all three.
    await node();
    await ours();
    await multx();
    const rounds = ctx.quick ? 3 : 9;
    const t = { node: [] as number[], ours: [] as number[], multx: [] as number[] };
    const loadBefore = loadAverage();
    for (let i = 0; i < rounds; i++) {
      t.node.push(await node());
      t.ours.push(await ours());
      t.multx.push(await multx());
    }
    const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
    ctx.log(`node -e 0: ${ms(t.node)} ms; laneway demux: ${ms(t.ours)} ms; fastq-multx: ${ms(t.multx)} ms`);
    const ref = median(t.node);
    const ourMs = median(t.ours);
    const over = ourMs - ref;
    return [
      {
        name: 'laneway demux start-up, 10 reads, header index',
        unit: 'ms',
        reference: { tool: 'node -e 0', value: ref },
        ours: ourMs,
        higherIsBetter: false,
        notes: `median of ${rounds}, load ${loadBefore} to ${loadAverage()}; ${over.toFixed(0)} ms more than node -e 0 (goal under ${GOAL_MS}: ${over < GOAL_MS ? 'met' : 'NOT met'})`,
      },
      {
        name: 'laneway demux start-up against fastq-multx, same 10 reads (I1 file)',
        unit: 'ms',
        reference: { tool: 'fastq-multx -B -m 1 (I1, R1)', value: median(t.multx) },
        ours: ourMs,
        higherIsBetter: false,
        notes: 'a C program starts in a few ms; Node alone takes the node -e 0 figure above',
      },
    ];
  },
};
