import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareWithTruth, generateLane, type GeneratedLane } from '../../helpers/fastq-generator';
import { technicianSuite } from './technician-suite';
import { uploadWhole } from './upload-helpers';

interface Lane {
  id: number;
  status: string;
  progress: number;
  error: string | null;
  samples: Array<{ name: string; barcode: string; sample_id: number | null; reads: number | null }>;
  total_reads: number;
  undetermined_reads: number;
  undetermined_data: number[];
  unknown_barcodes: Array<{ barcode: string; count: number }>;
  warnings: unknown[];
}

function csvOf(lane: GeneratedLane, extra: (name: string) => Record<string, string> = () => ({})): string {
  const rows = lane.barcodes.map((b) => ({
    'Sample Name': b.name,
    Barcode: b.barcode,
    Organism: 'Homo sapiens',
    Category: 'Total RNA',
    Tissue: 'liver',
    ...extra(b.name),
  }));
  const headers = Object.keys(rows[0]!);
  return (
    [headers.join(','), ...rows.map((r) => headers.map((h) => (r as Record<string, string>)[h]).join(','))].join('\n') +
    '\n'
  );
}

describe('lanes: annotation checks, background demultiplexing, samples per row, checked read by read', () => {
  const suite = technicianSuite();

  const postLane = async (
    parts: Record<string, string | { path: string; name: string } | { text: string; name: string }>,
  ) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(parts)) {
      if (typeof v === 'string') form.append(k, v);
      else if ('path' in v) form.append(k, new Blob([new Uint8Array(readFileSync(v.path))]), v.name);
      else form.append(k, new Blob([v.text]), v.name);
    }
    const res = await suite.service.api('/api/upload/multiplexed', {
      method: 'POST',
      headers: suite.auth(),
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const { get } = suite;
  const waitDone = async (id: number): Promise<Lane> => {
    for (let i = 0; i < 600; i++) {
      const lane = await get<Lane>(`/api/lanes/${id}`);
      if (lane.status !== 'demultiplexing') return lane;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('lane did not finish');
  };
  /** Downloads every sample's reads and the undetermined reads, then compares with the truth. */
  const checkReads = async (lane: Lane, gen: GeneratedLane, paired: boolean) => {
    const outputs: Array<{ sample: string; path: string }> = [];
    const r2: Array<{ sample: string; path: string }> = [];
    for (const s of lane.samples) {
      const sample = await get<{
        read1: number;
        read2: number | null;
        metadata: Record<string, unknown>;
        lane_id: number;
      }>(`/api/samples/${s.sample_id!}`);
      expect(sample.lane_id).toBe(lane.id);
      expect(sample.metadata).toMatchObject({
        organism: 'Homo sapiens',
        category: 'Total RNA',
        tissue: 'liver',
        barcode: s.barcode,
      });
      for (const [read, list] of [
        [sample.read1, outputs],
        [sample.read2, r2],
      ] as const) {
        if (read === null) continue;
        const info = await get<{ filename: string }>(`/api/data/${read}`);
        const bytes = Buffer.from(
          await (await suite.service.api(`/api/data/${read}/download`, { headers: suite.auth() })).arrayBuffer(),
        );
        const path = join(suite.dir, `${lane.id}-${read}-${info.filename}`);
        writeFileSync(path, bytes);
        list.push({ sample: s.name, path });
      }
    }
    expect(r2.length).toBe(paired ? lane.samples.length : 0);
    for (const [i, read] of lane.undetermined_data.entries()) {
      const info = await get<{ filename: string }>(`/api/data/${read}`);
      const bytes = Buffer.from(
        await (await suite.service.api(`/api/data/${read}/download`, { headers: suite.auth() })).arrayBuffer(),
      );
      const path = join(suite.dir, `${lane.id}-u-${info.filename}`);
      writeFileSync(path, bytes);
      (i === 0 ? outputs : r2).push({ sample: 'Undetermined', path });
    }
    const check = compareWithTruth(gen.truth, outputs);
    expect(check.examples).toEqual([]);
    const truthLines = readFileSync(gen.truth, 'utf8').trim().split('\n').length;
    expect(check).toMatchObject({ checked: truthLines, disagreements: 0, missing: 0 });
    if (gen.layout) {
      // The UMI (the N positions of the layout) moves into the read name.
      const umi = gen.layout.replace(/X/g, '').length;
      const first = readFileSync(outputs[0]!.path, 'latin1').split('\n')[0]!;
      expect(first).toMatch(new RegExp(`^@gen\\.\\d+_[ACGTN]{${umi}}\\b`));
    }
    if (paired) expect(compareWithTruth(gen.truth, r2)).toMatchObject({ disagreements: 0, missing: 0 });
  };

  it('demultiplexes inline barcodes with UMIs (plain, single-end) into one sample per row', async () => {
    const gen = generateLane({
      dir: suite.dir,
      reads: 3000,
      samples: 4,
      kind: 'inline',
      layout: 'NNNXXXXXXNN',
      readLength: 60,
      seed: 7,
    });
    const res = await postLane({
      name: 'Run 42 lane 1',
      layout: 'NNNXXXXXXNN',
      annotation: { text: csvOf(gen), name: 'sheet.csv' },
      file: { path: gen.read1, name: 'lane1.fastq' },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: 'Run 42 lane 1', status: 'demultiplexing', warnings: [] });
    expect((res.body.samples as unknown[]).length).toBe(4);
    const lane = await waitDone(res.body.id as number);
    expect(lane.error).toBeNull();
    expect(lane).toMatchObject({ status: 'complete', progress: 100, total_reads: 3000 });
    const truth = readFileSync(gen.truth, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[1]);
    for (const s of lane.samples) expect(s.reads, s.name).toBe(truth.filter((t) => t === s.name).length);
    expect(lane.undetermined_reads).toBe(truth.filter((t) => t === 'Undetermined').length);
    expect(lane.unknown_barcodes.length).toBeGreaterThan(0);
    await checkReads(lane, gen, false);
    const list = await get<{ count: number }>('/api/lanes/?status=complete');
    expect(list.count).toBe(1);
  });

  it('keeps samples named after what every object inherits (constructor, toString): answered, counted, created', async () => {
    // Valid sample names on any sheet. The lane's answer once read them from its counts before
    // there were any, found the inherited member, and failed with 500 after the lane was made.
    const names = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];
    const sub = join(suite.dir, 'inherited-names');
    (await import('node:fs')).mkdirSync(sub);
    const gen = generateLane({
      dir: sub,
      reads: 1500,
      samples: names.length,
      kind: 'header',
      readLength: 40,
      seed: 12,
    });
    const renamed = (n: string) => names[gen.barcodes.findIndex((b) => b.name === n)] ?? n;
    const res = await postLane({
      name: 'Inherited names',
      annotation: {
        text: csvOf({ ...gen, barcodes: gen.barcodes.map((b) => ({ ...b, name: renamed(b.name) })) }),
        name: 'a.csv',
      },
      file: { path: gen.read1, name: 'names.fastq' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect((res.body.samples as Lane['samples']).map((s) => [s.name, s.reads])).toEqual(names.map((n) => [n, null]));
    const lane = await waitDone(res.body.id as number);
    expect(lane).toMatchObject({ status: 'complete', error: null });
    const truth = readFileSync(gen.truth, 'utf8')
      .trim()
      .split('\n')
      .map((l) => renamed(l.split('\t')[1]!));
    for (const s of lane.samples) {
      expect(s.reads, s.name).toBe(truth.filter((t) => t === s.name).length);
      expect(s.sample_id, s.name).toEqual(expect.any(Number));
      expect((await get<{ name: string }>(`/api/samples/${s.sample_id!}`)).name).toBe(s.name);
    }
  });

  it('demultiplexes dual header indexes of a paired gz lane uploaded in chunks (file_data_id)', async () => {
    const sub = join(suite.dir, 'dual');
    (await import('node:fs')).mkdirSync(sub);
    const gen = generateLane({
      dir: sub,
      reads: 2000,
      samples: 3,
      kind: 'dual',
      barcodeLength: 8,
      paired: true,
      gzip: true,
      readLength: 50,
      seed: 8,
    });
    const r1 = await uploadWhole(suite.service.url, suite.token(), 'dual_R1.fastq.gz', readFileSync(gen.read1), {
      chunkSize: 16 * 1024,
    });
    const r2 = await uploadWhole(suite.service.url, suite.token(), 'dual_R2.fastq.gz', readFileSync(gen.read2!), {
      chunkSize: 16 * 1024,
    });
    expect(r1.status).toBe(200);
    const res = await postLane({
      name: 'dual lane',
      annotation: { text: csvOf(gen), name: 'dual.csv' },
      file_data_id: String(r1.body.id),
      file2_data_id: String(r2.body.id),
    });
    expect(res.status).toBe(202);
    const lane = await waitDone(res.body.id as number);
    expect(lane.error).toBeNull();
    expect(lane.status).toBe('complete');
    await checkReads(lane, gen, true);
    // One record as read 1 and as index read 1 would be read as both: refused, naming the field.
    const twice = await postLane({
      name: 'dual lane again',
      annotation: { text: csvOf(gen), name: 'dual.csv' },
      file_data_id: String(r1.body.id),
      file2_data_id: String(r2.body.id),
      index1_data_id: String(r1.body.id),
      ignore_warnings: 'true',
    });
    expect(twice).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', fields: { index1: 'must be another file than read 1 (file)' } },
    });
  });

  it('answers INVALID_ANNOTATION with rows, ANNOTATION_WARNINGS unless ignored, INVALID_FORMAT for reads', async () => {
    const sub = join(suite.dir, 'bad');
    (await import('node:fs')).mkdirSync(sub);
    const gen = generateLane({ dir: sub, reads: 200, samples: 3, kind: 'header', readLength: 40, seed: 9 });
    const file = { path: gen.read1, name: 'bad.fastq' };
    const dupBarcode = csvOf(gen).replace(gen.barcodes[1]!.barcode, gen.barcodes[0]!.barcode);
    const dup = await postLane({ name: 'x', annotation: { text: dupBarcode, name: 'a.csv' }, file });
    expect(dup).toMatchObject({ status: 400, body: { code: 'INVALID_ANNOTATION', status: 400 } });
    expect(dup.body.rows).toEqual(expect.arrayContaining([expect.objectContaining({ row: 3, column: 'Barcode' })]));
    const organism = csvOf(gen, (n): Record<string, string> => (n === 'S02' ? { Organism: 'Unicorn' } : {}));
    const bad = await postLane({ name: 'x', annotation: { text: organism, name: 'a.csv' }, file });
    expect(bad.body).toMatchObject({ code: 'INVALID_ANNOTATION', rows: [{ row: 3, column: 'Organism' }] });
    // Two barcodes two apart: a warning (and with one mismatch impossible to separate, so 0 are allowed).
    const close =
      gen.barcodes[0]!.barcode.slice(0, 6) +
      (gen.barcodes[0]!.barcode[6] === 'A' ? 'C' : 'A') +
      (gen.barcodes[0]!.barcode[7] === 'A' ? 'C' : 'A');
    const warnSheet = csvOf(gen).replace(gen.barcodes[2]!.barcode, close);
    const warned = await postLane({ name: 'w', annotation: { text: warnSheet, name: 'w.csv' }, file, mismatches: '0' });
    expect(warned).toMatchObject({ status: 409, body: { code: 'ANNOTATION_WARNINGS', status: 409 } });
    expect((warned.body.warnings as unknown[]).length).toBeGreaterThan(0);
    const accepted = await postLane({
      name: 'w',
      annotation: { text: warnSheet, name: 'w.csv' },
      file,
      mismatches: '0',
      ignore_warnings: 'true',
    });
    expect(accepted.status).toBe(202);
    expect((accepted.body.warnings as unknown[]).length).toBeGreaterThan(0);
    expect((await waitDone(accepted.body.id as number)).status).toBe('complete');
    const notFastq = await postLane({
      name: 'x',
      annotation: { text: csvOf(gen), name: 'a.csv' },
      file: { text: 'hello\n', name: 'x.fastq' },
    });
    expect(notFastq).toMatchObject({ status: 400, body: { code: 'INVALID_FORMAT' } });
    const noSheet = await postLane({ name: 'x', file });
    expect(noSheet).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    const unreadable = await postLane({
      name: 'x',
      annotation: { text: 'PK\u0003\u0004garbage', name: 'a.xlsx' },
      file,
    });
    expect(unreadable).toMatchObject({ status: 400, body: { code: 'INVALID_ANNOTATION' } });
    expect((await suite.service.api('/api/lanes/999', { headers: suite.auth() })).status).toBe(404);
  });
});
