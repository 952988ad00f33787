/**
 * What reading a .gz upload through gzip costs (gzip-check.ts): a FASTQ compressed by pigz, as
 * labs compress theirs, through the desktop queue's sender into `laneway serve` on loopback in
 * 8 MB chunks, one at a time, against the same bytes sent raw to the upload benchmark's bare
 * server, and against Debian's `gzip -t` reading the file once (what a careful technician runs
 * before uploading). No goal: the check is the price of never recording a file cut short.
 * Runs alone with `npm run bench -- gzip`.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark } from './harness';
import { bare, throughService } from './upload.bench';

const MB = 1024 * 1024;

/**
 * About `bytes` of FASTQ that compresses as a NovaSeq lane's does (about 4x with pigz): random
 * bases, binned qualities mostly F with some : and , (the upload benchmark's repeated block
 * compresses 35x, which would make inflating look cheap per compressed byte).
 */
function writeLaneLikeFastq(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  let written = 0;
  for (let n = 0; written < bytes;) {
    const lines: string[] = [];
    for (let r = 0; r < 4096; r++, n++) {
      const rnd = randomBytes(302);
      let seq = '';
      let qual = '';
      for (let i = 0; i < 151; i++) {
        seq += 'ACGT'[rnd[i]! & 3];
        const q = rnd[151 + i]!;
        qual += q < 20 ? ':' : q < 26 ? ',' : 'F';
      }
      lines.push(
        `@A00123:45:HXXXXXXX:1:${1101 + (n % 50)}:${n % 32000}:${(n * 7) % 36000} 1:N:0:ACGTACGT+TTGGCCAA`,
        seq,
        '+',
        qual,
      );
    }
    written += writeSync(fd, `${lines.join('\n')}\n`);
  }
  closeSync(fd);
}

export const benchmark: Benchmark = {
  name: 'gzip upload',
  async run(ctx) {
    const mib = ctx.quick ? 32 : 512;
    const plain = join(ctx.workDir, `upload-gzip-${mib}m.fastq`);
    const gz = `${plain}.gz`;
    if (!existsSync(gz)) {
      writeLaneLikeFastq(plain, mib * MB);
      execFileSync('pigz', ['-f', plain]);
    }
    const gzipVersion = execFileSync('gzip', ['--version'], { encoding: 'utf8' }).split('\n')[0]!;
    const size = statSync(gz).size / MB;
    // Alternating rounds, best of each (as the chunked upload benchmark).
    const rounds = ctx.quick ? 1 : 3;
    let floor = 0;
    let ours = 0;
    let gzipT = 0;
    for (let round = 1; round <= rounds; round++) {
      ctx.log(`round ${round}: ${size.toFixed(0)} MB .fastq.gz bare, through the queue, gzip -t...`);
      execFileSync('sync');
      floor = Math.max(floor, (await bare(ctx.workDir, gz)).mbps);
      execFileSync('sync');
      ours = Math.max(ours, (await throughService(ctx.workDir, gz)).mbps);
      const t0 = process.hrtime.bigint();
      execFileSync('gzip', ['-t', gz]);
      gzipT = Math.max(gzipT, size / (Number(process.hrtime.bigint() - t0) / 1e9));
    }
    ctx.log(`bare ${floor.toFixed(0)} MB/s, laneway ${ours.toFixed(0)} MB/s, gzip -t ${gzipT.toFixed(0)} MB/s`);
    return [
      {
        name: `upload a ${size.toFixed(0)} MB .fastq.gz (pigz), read through gzip as it is sent, loopback`,
        unit: 'MB/s',
        reference: { tool: `${gzipVersion}, gzip -t of the same file`, value: gzipT },
        ours,
        higherIsBetter: true,
        notes: `best of ${rounds} alternating rounds; the same bytes sent raw to the bare server ${floor.toFixed(0)} MB/s (laneway at ${(ours / floor).toFixed(2)} of it); sha256 verified`,
      },
    ];
  },
};
