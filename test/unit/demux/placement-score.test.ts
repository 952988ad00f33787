/**
 * Placement scoring's quick assigner answers what the shared string matcher answers, read for
 * read, on every design placement detection scores: inline 5' barcodes of mixed lengths with UMIs,
 * 3' barcodes, combinatorial 5'+3' pairs, dual indexes, a single index read from the header or
 * inline; with 0 to 2 mismatches, N bases, reads shorter than a layout, missing index fields;
 * through its code tables and barcode by barcode.
 */
import { describe, expect, it } from 'vitest';
import { makeMatcher, type ReadBarcodes } from '../../../src/shared/annotation/matcher';
import type { BarcodeDesign } from '../../../src/shared/annotation/design';
import { candidatePlacements } from '../../../src/shared/demux/placement-candidates';
import { sampleAssigner } from '../../../src/shared/demux/placement-score';
import { planFromRows } from '../../../src/service/tools/demux/plan';
import { prng } from '../../helpers/fastq-generator';

const rand = prng(2026);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const bases = (n: number) => Array.from({ length: n }, () => pick(['A', 'C', 'G', 'T'])).join('');

/** The plan of a sheet with these Barcode cells. */
function planOf(cells: string[]) {
  const rows = cells.map((cell, i) => ({
    row: i + 2,
    values: { 'Sample Name': `S${i + 1}`, Barcode: cell, Organism: 'Homo sapiens', Category: 'RNA' },
  }));
  const { plan, report } = planFromRows(rows, {});
  if (!plan) throw new Error(JSON.stringify(report.errors));
  return plan;
}

/** A read near one of the design's barcodes: its bases at the layout, then 0 to 3 changes. */
function readNear(design: BarcodeDesign): ReadBarcodes {
  const b = pick(design.barcodes);
  const noisy = (s: string) => {
    let out = s;
    for (let k = Math.floor(rand() * 4); k > 0; k--) {
      const at = Math.floor(rand() * out.length);
      out = out.slice(0, at) + pick(['A', 'C', 'G', 'T', 'N']) + out.slice(at + 1);
    }
    return out;
  };
  const part = (s: number) => {
    const p = b.parts[s]!;
    let k = 0;
    return [...p.layout].map((c) => (c === 'X' ? p.bases[k++] : pick(['A', 'C', 'G', 'T']))).join('');
  };
  const five = design.segments.includes("5'") || design.kind === 'plain' ? part(0) : '';
  const three = design.segments.includes("3'") ? part(design.segments.indexOf("3'")) : '';
  const seq = noisy(five + bases(Math.floor(rand() * 30)) + three).slice(0, rand() < 0.05 ? 4 : undefined);
  const [i7, i5] = design.kind === 'index' ? b.barcode.split('+') : [b.parts[0]!.bases, null];
  return {
    seq,
    i7: rand() < 0.05 ? null : noisy(i7!).slice(0, rand() < 0.05 ? 5 : undefined),
    i5: i5 === null || rand() < 0.05 ? null : noisy(i5!),
  };
}

const designs: Array<[string, string[]]> = [
  ['inline mixed lengths with UMIs', ['NNNACGTACNN', 'NNNTTGCAGGNN', 'NNNGACCTTAGNN', 'NNNCATGTCNN']],
  ["3' barcodes", ['...ACGTACNNNN', '...TGCATGNNNN', '...GATCCANNNN']],
  ["5'+3' pairs", ['NNNACGTACNN...TTGACCNNNN', 'NNNACGTACNN...CAGTTGNNNN', 'NNNGGTCATNN...TTGACCNNNN']],
  ['dual indexes', ['ACGTACGT+TTGGCCAA', 'TGCATGCA+AACCGGTT', 'GATCGATC+CCAATTGG', 'CTAGCTAG+GGTTAACC']],
  ['single indexes', ['ACGTACGT', 'TGCATGCA', 'GATCGATC', 'CTAGCTAG', 'AACCGGTT']],
];

describe('placement scoring', () => {
  it.each(designs)('assigns as the string matcher does: %s', (_, cells) => {
    const plan = planOf(cells);
    const design = plan.design;
    const reads = Array.from({ length: 1500 }, () => readNear(design));
    // An index-read lane, so that the index placements are among the candidates.
    const lane = {
      read1: reads.map((r) => ({ header: '@r 1:N:0:1', seq: r.seq })),
      read2: null,
      index1: [{ header: '@r 1:N:0:1', seq: 'A' }],
      index2: null,
    };
    const placements = candidatePlacements(plan, lane, 'AGATCGGAAGAGC');
    expect(placements.length).toBeGreaterThan(0);
    let assigned = 0;
    for (const p of placements) {
      for (const m of [[0], [1], [2], [1, 0]]) {
        const inline = p.source === 'inline';
        const slow = makeMatcher(p.design, m, inline);
        const quick = sampleAssigner(p.design, m, inline);
        const scan = sampleAssigner(p.design, m, inline, null);
        const want = reads.map((r) => slow.assign(r).sample);
        expect(reads.map(quick), `${p.id}, mismatches ${m.join(',')}, tables`).toEqual(want);
        expect(reads.map(scan), `${p.id}, mismatches ${m.join(',')}, barcode by barcode`).toEqual(want);
        assigned += want.filter((x) => x >= 0).length;
      }
    }
    // The reads are near the barcodes: many are assigned, so the test compares more than -1s.
    expect(assigned).toBeGreaterThan(500);
  });

  it.each(designs)(
    'counts the reads an inline placement assigns as the assigner does, read for read: %s',
    (name, cells) => {
      const plan = planOf(cells);
      const reads = Array.from({ length: 1500 }, () => readNear(plan.design));
      const lane = {
        read1: reads.map((r) => ({ header: '@r 1:N:0:1', seq: r.seq })),
        read2: null,
        index1: null,
        index2: null,
      };
      let counted = 0;
      for (const p of candidatePlacements(plan, lane, 'AGATCGGAAGAGC')) {
        if (p.source !== 'inline') continue;
        for (const m of [[0], [1], [2]]) {
          const assign = sampleAssigner(p.design, m, true);
          if (!assign.countSeqs) continue;
          counted++;
          const want = reads.filter((r) => assign(r) >= 0).length;
          expect(assign.countSeqs(lane.read1, reads.length), `${p.id}, mismatches ${m.join(',')}`).toBe(want);
          // Past the carrier's end a read has no bases (a read 2 file shorter than read 1).
          const head = lane.read1.slice(0, 1000);
          const wantHead = reads.slice(0, 1000).filter((r) => assign(r) >= 0).length;
          expect(assign.countSeqs(head, reads.length)).toBe(wantHead);
        }
      }
      // One inline segment of one layout has the counting path: 3' barcodes, a bare index tried inline.
      expect(counted > 0).toBe(name === "3' barcodes" || name === 'single indexes');
    },
  );
});
