import { mkdirSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { demultiplex, type DemuxResult } from '../../../src/service/tools/demux/demultiplexer';
import type { OutputChooser } from '../../../src/service/tools/demux/output-mode';
import { planFromRows } from '../../../src/service/tools/demux/plan';
import { compareWithTruth, generateLane, type GeneratedLane, type LaneSpec } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';

type Rec = { name: string; comment: string; seq: string; qual: string };

function readFastq(path: string): Rec[] {
  const raw = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('latin1');
  const lines = text.split('\n');
  const out: Rec[] = [];
  for (let i = 0; i + 3 < lines.length; i += 4) {
    const header = lines[i]!.slice(1);
    const sp = header.indexOf(' ');
    out.push({
      name: sp < 0 ? header : header.slice(0, sp),
      comment: sp < 0 ? '' : header.slice(sp + 1),
      seq: lines[i + 1]!,
      qual: lines[i + 3]!,
    });
  }
  return out;
}

/** Checks every output read against its input read: sample, trimming, UMI in the name, mates. */
function verifyReadByRead(lane: GeneratedLane, result: DemuxResult, outDir: string): void {
  const inputs1 = new Map(readFastq(lane.read1).map((r) => [r.name, r]));
  const inputs2 = lane.read2 ? new Map(readFastq(lane.read2).map((r) => [r.name, r])) : null;
  const files = [
    ...result.samples.map((s) => ({ sample: s.name, files: s.files })),
    { sample: 'Undetermined', files: result.undetermined_files },
  ];
  const cmp = compareWithTruth(
    lane.truth,
    files.map((f) => ({ sample: f.sample, path: join(outDir, f.files[0]!) })),
  );
  expect(cmp.examples).toEqual([]);
  expect(cmp.disagreements).toBe(0);
  const umiAt = lane.layout ? [...lane.layout].flatMap((c, i) => (c === 'N' ? [i] : [])) : [];
  const trim = lane.layout?.length ?? 0;
  for (const f of files) {
    const undetermined = f.sample === 'Undetermined';
    const r1 = readFastq(join(outDir, f.files[0]!));
    const r2 = f.files[1] ? readFastq(join(outDir, f.files[1])) : null;
    expect(r1.length).toBe(
      undetermined ? result.undetermined_reads : result.samples.find((s) => s.name === f.sample)!.reads,
    );
    r1.forEach((rec, i) => {
      const base = !undetermined && umiAt.length ? rec.name.slice(0, rec.name.lastIndexOf('_')) : rec.name;
      const original = inputs1.get(base)!;
      expect(original, rec.name).toBeDefined();
      const t = undetermined ? 0 : trim;
      expect(rec.seq).toBe(original.seq.slice(t));
      expect(rec.qual).toBe(original.qual.slice(t));
      expect(rec.comment).toBe(original.comment);
      if (!undetermined && umiAt.length) expect(rec.name).toBe(`${base}_${umiAt.map((p) => original.seq[p]).join('')}`);
      if (r2) {
        // Mates in step: the same read at the same position, with the same name (and UMI).
        const mate = r2[i]!;
        expect(mate.name).toBe(rec.name);
        expect(mate.seq).toBe(inputs2!.get(base)!.seq);
      }
    });
    if (r2) expect(r2.length).toBe(r1.length);
  }
}

describe('demultiplex on generated lanes, read by read', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const cases: Array<Omit<LaneSpec, 'dir'>> = [];
  for (const kind of ['inline', 'header', 'dual'] as const) {
    for (const gzip of [false, true]) {
      for (const paired of [false, true])
        cases.push({ kind, gzip, paired, reads: 1500, samples: 6, seed: cases.length + 1 });
    }
  }

  it.each(cases)('$kind barcodes, gzip $gzip, paired $paired', async (spec) => {
    const laneDir = join(dir.path, `${spec.kind}-${spec.gzip}-${spec.paired}`);
    mkdirSync(laneDir);
    const lane = generateLane({ ...spec, dir: laneDir, mismatchFraction: 0.05, undeterminedFraction: 0.03 });
    const { plan, report } = planFromRows(lane.rows, { layout: lane.layout ?? undefined });
    expect(report.errors).toEqual([]);
    const outDir = join(laneDir, 'out');
    const progress: number[] = [];
    const result = await demultiplex(plan!, {
      read1: lane.read1,
      read2: lane.read2,
      outDir,
      onProgress: (f) => progress.push(f),
    });
    expect(result.source).toBe(spec.kind === 'inline' ? 'inline' : 'header');
    expect(result.gzip).toBe(spec.gzip);
    expect(result.total_reads).toBe(1500);
    expect(result.samples.reduce((n, s) => n + s.one_mismatch, 0)).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);
    verifyReadByRead(lane, result, outDir);
    expect(JSON.parse(readFileSync(join(outDir, 'demux-report.json'), 'utf8'))).toMatchObject({
      total_reads: 1500,
      undetermined_reads: result.undetermined_reads,
    });
  });

  it('keeps every read through many input chunks lent to the output thread (paired, UMIs in both names)', async () => {
    // About 4 MB per mate read in chunks of 128 KiB: some 60 chunks in all, far more than the
    // output thread may hold at once (12), and batches of copy operations that name the chunks
    // the readers still hold. (The chunk size is what makes this test, not the lane's size: with
    // the 4 MiB default it took 100,000 reads and timed out on a loaded machine.)
    const laneDir = join(dir.path, 'many-chunks');
    mkdirSync(laneDir);
    const reads = 12_000;
    const lane = generateLane({
      dir: laneDir,
      kind: 'inline',
      reads,
      samples: 8,
      paired: true,
      readLength: 150,
      mismatchFraction: 0.05,
      undeterminedFraction: 0.03,
      seed: 77,
    });
    const { plan } = planFromRows(lane.rows, { layout: lane.layout ?? undefined });
    const outDir = join(laneDir, 'out');
    const result = await demultiplex(plan!, {
      read1: lane.read1,
      read2: lane.read2,
      outDir,
      outputThread: true,
      chunkBytes: 128 * 1024,
    });
    expect(result.total_reads).toBe(reads);
    verifyReadByRead(lane, result, outDir);
    // The same lane with the output on the parsing thread: the same bytes.
    const here = join(laneDir, 'here');
    await demultiplex(plan!, {
      read1: lane.read1,
      read2: lane.read2,
      outDir: here,
      outputThread: false,
      chunkBytes: 128 * 1024,
    });
    for (const f of [...result.samples.flatMap((s) => s.files), ...result.undetermined_files]) {
      expect(readFileSync(join(here, f)).equals(readFileSync(join(outDir, f))), f).toBe(true);
    }
  });

  it('assigns exactly, without mismatches, when asked to; reports the top unknown barcodes', async () => {
    const laneDir = join(dir.path, 'exact');
    mkdirSync(laneDir);
    const lane = generateLane({
      dir: laneDir,
      kind: 'header',
      reads: 1000,
      samples: 4,
      mismatchFraction: 0.1,
      seed: 42,
    });
    const { plan } = planFromRows(lane.rows, { mismatches: 0 });
    const result = await demultiplex(plan!, { read1: lane.read1, outDir: join(laneDir, 'out') });
    const truth = readFileSync(lane.truth, 'utf8').trim().split('\n');
    const intended = truth.filter((l) => !l.endsWith('Undetermined')).length;
    expect(result.samples.every((s) => s.one_mismatch === 0)).toBe(true);
    expect(result.assigned_reads).toBeLessThan(intended); // mismatched reads are now undetermined
    // The top unknown barcodes, counted independently from the Undetermined file's headers.
    const counted = new Map<string, number>();
    for (const r of readFastq(join(laneDir, 'out', 'Undetermined.fastq'))) {
      const bc = r.comment.split(':').pop()!;
      counted.set(bc, (counted.get(bc) ?? 0) + 1);
    }
    expect(result.top_unknown.length).toBe(Math.min(20, counted.size));
    for (const u of result.top_unknown) expect(u.count).toBe(counted.get(u.barcode));
    expect(result.top_unknown[0]!.count).toBe(Math.max(...counted.values()));
  });

  it('reads plain barcodes inline when the header has no index field (auto), and honours maxReads', async () => {
    const laneDir = join(dir.path, 'auto');
    mkdirSync(laneDir);
    const lane = generateLane({ dir: laneDir, kind: 'inline', layout: 'XXXXXXXX', reads: 800, samples: 5, seed: 9 });
    const rows = lane.rows;
    const { plan } = planFromRows(rows);
    expect(plan!.layout).toBeNull();
    const result = await demultiplex(plan!, { read1: lane.read1, outDir: join(laneDir, 'out') });
    expect(result.source).toBe('inline');
    verifyReadByRead(lane, result, join(laneDir, 'out'));
    const some = await demultiplex(plan!, { read1: lane.read1, outDir: join(laneDir, 'some'), maxReads: 100 });
    expect(some.total_reads).toBe(100);
  });

  it('fails clearly on broken input: mates out of step, truncated records, not FASTQ', async () => {
    const laneDir = join(dir.path, 'broken');
    mkdirSync(laneDir);
    const lane = generateLane({ dir: laneDir, kind: 'header', reads: 50, samples: 3, paired: true, seed: 5 });
    const { plan } = planFromRows(lane.rows);
    const r2 = readFileSync(lane.read2!, 'latin1').split('\n');
    const shortR2 = join(laneDir, 'short_R2.fastq');
    writeFileSync(shortR2, r2.slice(0, 40 * 4).join('\n'));
    await expect(
      demultiplex(plan!, { read1: lane.read1, read2: shortR2, outDir: join(laneDir, 'o1') }),
    ).rejects.toThrow(/fewer reads/);
    const swapped = join(laneDir, 'swapped_R2.fastq');
    writeFileSync(swapped, [...r2.slice(4, 8), ...r2.slice(0, 4), ...r2.slice(8)].join('\n'));
    await expect(
      demultiplex(plan!, { read1: lane.read1, read2: swapped, outDir: join(laneDir, 'o2') }),
    ).rejects.toThrow(/out of step/);
    const truncated = join(laneDir, 'trunc.fastq');
    writeFileSync(
      truncated,
      readFileSync(lane.read1, 'latin1')
        .split('\n')
        .slice(0, 4 * 10 + 2)
        .join('\n'),
    );
    await expect(demultiplex(plan!, { read1: truncated, outDir: join(laneDir, 'o3') })).rejects.toThrow(
      /record 11 is truncated/,
    );
    const corrupt = join(laneDir, 'corrupt.fastq.gz');
    writeFileSync(corrupt, Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.alloc(64, 0x41)]));
    await expect(demultiplex(plan!, { read1: corrupt, outDir: join(laneDir, 'o5') })).rejects.toThrow(
      /corrupt\.fastq\.gz: not a readable gzip file/,
    );
    const notFastq = join(laneDir, 'x.fastq');
    writeFileSync(notFastq, '>fasta\nACGT\n');
    await expect(demultiplex(plan!, { read1: notFastq, outDir: join(laneDir, 'o4') })).rejects.toThrow(
      /record 1 does not start with "@"/,
    );
  });

  it('fails cleanly while the files move between the threads: every descriptor closed, the thread stopped', async () => {
    const laneDir = join(dir.path, 'broken-moving');
    mkdirSync(laneDir);
    const lane = generateLane({ dir: laneDir, kind: 'header', reads: 3000, samples: 3, paired: true, seed: 6 });
    const { plan } = planFromRows(lane.rows);
    const r2 = readFileSync(lane.read2!, 'latin1').split('\n');
    // Descriptors open on the outputs (inputs close once their last read-ahead lands, later).
    const openOutputs = (out: string) =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(out);
        } catch {
          return false; // closed meanwhile
        }
      });
    // The files go to the thread at read 1,024 and back at 2,048: read 2 ends at 1,500 (the
    // thread holds the files) or at 2,600 (this thread holds them again).
    for (const [k, end] of [1500, 2600].entries()) {
      const short = join(laneDir, `short${k}_R2.fastq`);
      writeFileSync(short, r2.slice(0, end * 4).join('\n'));
      const flip: OutputChooser = { next: (mode) => (mode === 'here' ? 'thread' : 'here') };
      await expect(
        demultiplex(plan!, {
          read1: lane.read1,
          read2: short,
          outDir: join(laneDir, `o${k}`),
          outputThread: true,
          outputChooser: flip,
        }),
      ).rejects.toThrow(/fewer reads/);
      expect(openOutputs(join(laneDir, `o${k}`)), `read 2 ending at ${end}`).toEqual([]);
    }
  });
});
