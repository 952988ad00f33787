/**
 * Many small files through the durable upload queue: 2,000 files of 100 KB (`--quick`: 200)
 * into `laneway serve` over loopback, in files per second, against the queue benchmark's bare
 * server fed one raw request per file by undici in the same run. Runs alone with
 * `npm run bench -- small`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark } from './harness';
import { bare, makeFastq, throughQueue } from './queue.bench';

const MB = 1024 * 1024;

export const benchmark: Benchmark = {
  name: 'upload queue, many small files',
  async run(ctx) {
    const count = ctx.quick ? 200 : 2000;
    const many = join(ctx.workDir, `queue-many-${count}`);
    if (!existsSync(join(many, `f${count - 1}.fastq`))) {
      mkdirSync(many, { recursive: true });
      const template = join(many, 'template.tmp');
      makeFastq(template, 100 * 1000, 11);
      const bytes = readFileSync(template);
      rmSync(template);
      // Distinct content per file, or the queue would rightly deduplicate them.
      for (let i = 0; i < count; i++)
        writeFileSync(
          join(many, `f${i}.fastq`),
          Buffer.concat([
            Buffer.from(`@unique.${i}\nACGT\n+\nFFFF\n`),
            bytes.subarray(0, bytes.length - 20 - String(i).length),
          ]),
        );
    }
    // Five alternating rounds, the median of each: one run of either moved by a fifth from run to run
    // on this shared machine (0.43 to 0.52 of the bare transfer in three full runs). Each run
    // writes into a folder of its own, and all are removed only after the last round: this
    // machine's ext4 has no journal, and without one the kernel's inode allocator passes over
    // every inode freed in the last minute or more (`recently_deleted`, checked for each free
    // inode from the start of the group), so removing one run's 2,000 files made the next run's
    // file creation several times dearer (80% of its kernel time under `perf`). The queue ran
    // right after removing the previous round's service folder and the bare run's files, the bare
    // run only after its own: the rounds slowed one after another, and the queue more.
    // Who goes first alternates too (bare, queue; queue, bare; ...), and the file system is
    // flushed (`sync`, untimed) before each run: the bare server never flushes, so its 200 MB
    // were otherwise written back by the kernel during whichever run came next.
    const rounds = ctx.quick ? 1 : 5;
    const floors: Array<{ seconds: number }> = [];
    const runs: Array<Awaited<ReturnType<typeof throughQueue>>> = [];
    const folders = (r: number) => [
      `queue-files-bare-${r}`,
      `queue-files-service-${r}`,
      `queue-files-service-${r}-state`,
    ];
    const removeAll = () => {
      for (let r = 0; r < rounds; r++)
        for (const f of folders(r)) rmSync(join(ctx.workDir, f), { recursive: true, force: true });
    };
    removeAll();
    const flush = () => execFileSync('sync');
    try {
      for (let r = 0; r < rounds; r++) {
        const [bareFolder, serviceFolder] = folders(r) as [string, string];
        const bareRound = async () => {
          flush();
          ctx.log(`round ${r + 1}: ${count} files of 100 KB, bare...`);
          floors.push(await bare(ctx.workDir, 'bare-many', `${many}/`, { folder: bareFolder, keep: true }));
        };
        const queueRound = async () => {
          flush();
          ctx.log(`round ${r + 1}: ${count} files of 100 KB through the queue...`);
          runs.push(await throughQueue(ctx.workDir, `${many}/`, { folder: serviceFolder }));
        };
        if (r % 2 === 0) {
          await bareRound();
          await queueRound();
        } else {
          await queueRound();
          await bareRound();
        }
      }
    } finally {
      removeAll();
    }
    const middle = <T extends { seconds: number }>(xs: T[]): T =>
      [...xs].sort((a, b) => a.seconds - b.seconds)[Math.floor(xs.length / 2)]!;
    const manyFloor = middle(floors);
    const manyOurs = middle(runs);
    ctx.log(`ratio by round: ${runs.map((q, i) => (floors[i]!.seconds / q.seconds).toFixed(2)).join(' ')}`);
    ctx.log(
      `bare ${floors.map((f) => (count / f.seconds).toFixed(0)).join(' ')} files/s, queue ${runs.map((q) => (count / q.seconds).toFixed(0)).join(' ')} files/s`,
    );
    return [
      {
        name: `queue: ${count} files of 100 KB`,
        unit: 'files/s',
        reference: { tool: 'bare node:http + undici, one request per file', value: count / manyFloor.seconds },
        ours: count / manyOurs.seconds,
        higherIsBetter: true,
        goal: 0.5,
        notes: `median of ${rounds} alternating rounds, each run in a folder of its own, all removed after the last; each file: sha256 before sending (dedup), one chunk, journal, hash index and state rows in SQLite; the service creates a data record per file; send window ended at ${((manyOurs.window?.last ?? 0) / MB).toFixed(1)} MiB`,
      },
    ];
  },
};
