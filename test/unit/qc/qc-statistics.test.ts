/** The statistics of quality control, checked by hand on tiny files. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runQc } from '../../../src/service/tools/qc/qc-run';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-qc-unit-');
afterAll(() => dir.remove());

function file(name: string, content: string | Buffer): string {
  const path = join(dir.path, name);
  writeFileSync(path, content);
  return path;
}

// Qualities: '!' = 0, '5' = 20, '?' = 30, 'I' = 40, '#' = 2.
const TINY = ['@r1', 'ACGTN', '+', 'I?5#!', '@r2', 'GGCC', '+', 'IIII', '@r3', 'acgtAC', '+', '555555', ''].join('\n');

describe('quality-control statistics', () => {
  it('counts reads, bases, Q20, Q30, GC and N as fastp does', async () => {
    const r = await runQc(file('tiny.fq', TINY));
    expect(r.summary).toMatchObject({
      total_reads: 3,
      total_bases: 15,
      // Q20: I ? 5 (r1) + IIII + 555555 = 3 + 4 + 6
      q20_bases: 13,
      // Q30: I ? (r1) + IIII
      q30_bases: 6,
      // GC: C G (r1) + GGCC + c g C (r3, lowercase counts like fastp)
      gc_bases: 9,
      n_bases: 1,
      min_length: 4,
      max_length: 6,
      mean_length: 5,
    });
    expect(r.summary.gc_content).toBeCloseTo(9 / 15, 12);
    expect(r.length_distribution).toEqual([
      { length: 4, count: 1 },
      { length: 5, count: 1 },
      { length: 6, count: 1 },
    ]);
  });

  it('derives per-position quality quartiles and base content per cycle', async () => {
    const r = await runQc(file('tiny2.fq', TINY));
    const first = r.per_position_quality[0]!;
    // cycle 1 qualities: 40, 40, 20
    expect(first.position).toBe(1);
    expect(first.mean).toBeCloseTo(100 / 3, 10);
    expect(first.median).toBe(40);
    expect(first.p10).toBe(20);
    // cycle 6 exists only in r3
    expect(r.per_position_quality.at(-1)).toMatchObject({ position: 6, mean: 20, median: 20 });
    const c5 = r.per_position_content[4]!;
    // cycle 5: N (r1), A (r3)
    expect(c5).toMatchObject({ position: 5, n: 50, a: 50, c: 0, g: 0, t: 0 });
    // GC per read: r1 2/5 = 40%, r2 100%, r3 3/6 = 50%
    expect(r.gc_distribution[40]).toBe(1);
    expect(r.gc_distribution[100]).toBe(1);
    expect(r.gc_distribution[50]).toBe(1);
    // mean read quality: r1 (40+30+20+2+0)/5 = 18.4 -> 18, r2 40, r3 20
    expect(r.per_sequence_quality).toEqual([
      { quality: 18, count: 1 },
      { quality: 20, count: 1 },
      { quality: 40, count: 1 },
    ]);
  });

  it('finds adapters by the position they start at, cumulatively', async () => {
    const adapter = 'AGATCGGAAGAGCACACG';
    const lines: string[] = [];
    for (let i = 0; i < 10; i++) {
      const seq =
        i < 4 ? `${'T'.repeat(10)}${adapter}`.slice(0, 25) : `${'C'.repeat(5 + i)}${'T'.repeat(20)}`.slice(0, 25);
      lines.push(`@r${i}`, seq, '+', 'I'.repeat(seq.length));
    }
    const r = await runQc(file('adapters.fq', `${lines.join('\n')}\n`));
    const universal = r.adapter_content.adapters.findIndex((a) => a.name === 'Illumina Universal Adapter');
    // adapter starts at position 11 (1-based) in 4 of 10 reads
    expect(r.adapter_content.positions[9]!.percent[universal]).toBe(0);
    expect(r.adapter_content.positions[10]!.percent[universal]).toBe(40);
    expect(r.adapter_content.totals[universal]).toBe(40);
    expect(r.adapter_content.totals.filter((_, i) => i !== universal).every((x) => x === 0)).toBe(true);
  });

  it('estimates duplication and reports overrepresented sequences from the sample', async () => {
    const lines: string[] = [];
    const dup = 'ACGTACGTACGTACGTACGTTTTT';
    for (let i = 0; i < 20; i++) {
      const seq = i % 2 === 0 ? dup : fastqText({ reads: 1, length: 24, seed: i + 7 }).split('\n')[1]!;
      lines.push(`@r${i}`, seq, '+', 'I'.repeat(seq.length));
    }
    const r = await runQc(file('dups.fq', `${lines.join('\n')}\n`));
    expect(r.duplication.sampled_reads).toBe(20);
    expect(r.duplication.distinct_sequences).toBe(11);
    expect(r.duplication.duplicate_rate).toBeCloseTo(9 / 20, 12);
    expect(r.duplication.levels.find((l) => l.copies === '6-10')!.percent_of_reads).toBe(50);
    expect(r.overrepresented_sequences[0]).toMatchObject({ sequence: dup, count: 10, percent: 50 });
  });

  it('reads CRLF line ends, a missing final newline, gzip and multi-member gzip input alike', async () => {
    const plain = await runQc(file('plain.fq', TINY));
    const crlf = await runQc(file('crlf.fq', TINY.replace(/\n/g, '\r\n')));
    const noFinal = await runQc(file('nofinal.fq', TINY.trimEnd()));
    const gz = await runQc(file('tiny.fastq.gz', gzipSync(TINY)));
    // concatenated gzip members (bgzip, pigz --independent, cat a.gz b.gz) are one stream
    const cut = TINY.indexOf('@r2');
    const members = Buffer.concat([gzipSync(TINY.slice(0, cut)), gzipSync(TINY.slice(cut))]);
    expect((await runQc(file('members.fq.gz', members))).summary).toEqual((await runQc(file('p.fq', TINY))).summary);
    expect(crlf.summary).toEqual(plain.summary);
    expect(noFinal.summary).toEqual(plain.summary);
    expect(gz.summary).toEqual(plain.summary);
    expect(gz.compressed).toBe(true);
    expect(plain.compressed).toBe(false);
  });

  it('stops after maxReads (test mode) and says so', async () => {
    const path = file('many.fq', fastqText({ reads: 500, length: 50, seed: 2 }));
    const r = await runQc(path, { maxReads: 120 });
    expect(r.summary.total_reads).toBe(120);
    expect(r.summary.total_bases).toBe(6000);
    expect(r.truncated).toBe(true);
    expect((await runQc(path)).truncated).toBe(false);
  });

  it('gives the same result split into many chunks, on threads or inline', async () => {
    const path = file(
      'split.fq',
      fastqText({ reads: 3000, length: [30, 160], nRate: 0.02, seed: 5, duplicateRate: 0.2 }),
    );
    const whole = await runQc(path);
    const chunked = await runQc(path, { chunkBytes: 20_000 });
    const threaded = await runQc(path, { chunkBytes: 20_000, threads: 3, threadedMinBytes: 0, awaitThreads: true });
    expect(chunked).toEqual(whole);
    expect(threaded).toEqual(whole);
  });
});
