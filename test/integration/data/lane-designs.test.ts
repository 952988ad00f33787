/**
 * Lanes of every barcode design through the REST lane upload (POST /api/upload/multiplexed),
 * each sample's reads downloaded and compared read by read with the generator's truth, and the
 * lane's report: mismatches per segment and their maximum, undetermined fraction, top unknown
 * barcodes with their nearest sample, index hopping, and the cause when most reads are undetermined.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DesignLane, DesignLaneSpec } from '../../helpers/design-lane-generator';
import { compareWithTruth } from '../../helpers/fastq-generator';
import { designLaneUploads } from './design-lane-uploads';

interface Lane {
  id: number;
  status: string;
  error: string | null;
  barcode_source: string;
  segment_mismatches: number[];
  samples: Array<{ name: string; sample_id: number | null; reads: number | null }>;
  undetermined_data: number[];
  unknown_barcodes: Array<{ barcode: string; count: number; nearest: string | null }>;
  report: {
    layout: string | null;
    segments: string[];
    segment_mismatches: number[];
    max_mismatches: number[];
    undetermined_fraction: number;
    hopping: { reads: number; top: Array<{ samples: string[] }> } | null;
    diagnosis: { cause: string } | null;
    top_unknown: Array<{ nearest: string | null }>;
    detection?: { chosen: { id: string } } | null;
  } | null;
}

describe('lanes: every barcode design through the REST lane upload, to the truth', () => {
  const uploads = designLaneUploads();
  const { auth, get } = uploads;

  const submit = async (spec: Omit<DesignLaneSpec, 'dir'>, fields: Record<string, string> = {}) => {
    const { gen, res } = await uploads.post(spec, fields);
    const body = (await res.json()) as Lane;
    expect(res.status, JSON.stringify(body)).toBe(202);
    let lane = body;
    for (let i = 0; i < 600 && lane.status === 'demultiplexing'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      lane = await get<Lane>(`/api/lanes/${body.id}`);
    }
    expect(lane.status, lane.error ?? '').toBe('complete');
    return { gen, lane };
  };

  /** Downloads read 1 of every sample and of Undetermined and compares with the truth. */
  const toTruth = async (gen: DesignLane, lane: Lane) => {
    const outputs: Array<{ sample: string; path: string }> = [];
    const save = async (id: number, sample: string) => {
      const bytes = Buffer.from(
        await (await uploads.service.api(`/api/data/${id}/download`, { headers: auth() })).arrayBuffer(),
      );
      const path = join(uploads.dir, `${lane.id}-${id}.fastq`);
      writeFileSync(path, bytes);
      outputs.push({ sample, path });
    };
    for (const s of lane.samples) {
      const sample = await get<{ read1: number }>(`/api/samples/${s.sample_id!}`);
      await save(sample.read1, s.name);
    }
    await save(lane.undetermined_data[0]!, 'Undetermined');
    const cmp = compareWithTruth(gen.truth, outputs);
    expect(cmp.examples).toEqual([]);
    expect(cmp.disagreements).toBe(0);
  };

  it('mixed-length inline barcodes with UMIs, layout detected from the sheet', async () => {
    const { gen, lane } = await submit({ kind: 'mixed5', reads: 3000, samples: 9, seed: 41 });
    expect(lane.report!.layout).toBe('NNNXXXXXXXXNN | NNNXXXXXXXNN | NNNXXXXXXNN');
    expect(lane.report!.segment_mismatches).toEqual([1]);
    expect(lane.report!.undetermined_fraction).toBeLessThan(0.05);
    await toTruth(gen, lane);
  });

  it("3' barcodes", async () => {
    const { gen, lane } = await submit({ kind: 'inline3', reads: 2000, samples: 6, seed: 42 });
    expect(lane.report!.segments).toEqual(["3'"]);
    await toTruth(gen, lane);
  });

  it("combinatorial 5'+3' pairs with mismatches per end", async () => {
    const { gen, lane } = await submit(
      { kind: 'combinatorial', reads: 3000, samples: 6, seed: 43, hoppingFraction: 0.03 },
      { mismatches: '1,1' },
    );
    expect(lane.segment_mismatches).toEqual([1, 1]);
    expect(lane.report!.hopping!.reads).toBeGreaterThan(0);
    await toTruth(gen, lane);
  });

  it('dual indexes as I1/I2 index-read parts, with index hopping in the report', async () => {
    const { gen, lane } = await submit({
      kind: 'dual-index-reads',
      reads: 3000,
      samples: 6,
      seed: 44,
      hoppingFraction: 0.03,
    });
    expect(lane.barcode_source).toBe('index-reads');
    expect(lane.report!.segments).toEqual(['i7', 'i5']);
    expect(lane.report!.hopping!.reads).toBeGreaterThan(30);
    expect(lane.report!.hopping!.top[0]!.samples).toHaveLength(2);
    await toTruth(gen, lane);
  });

  it('reads i5 indexes the sheet has reverse-complemented as the reads carry them', async () => {
    const { gen, lane } = await submit({
      kind: 'dual-header',
      reads: 2000,
      samples: 6,
      seed: 45,
      sheetI5ReverseComplemented: true,
    });
    expect(lane.report!.detection!.chosen.id).toBe('header:i5rc');
    expect(lane.report!.undetermined_fraction).toBeLessThan(0.05);
    await toTruth(gen, lane);
  });

  it('refuses bad design fields with the spec error body', async () => {
    for (const [fields, key] of [
      [{ mismatches: '3' }, 'mismatches'],
      [{ mismatches: '1,1,1' }, 'mismatches'],
      [{ layout: 'NNQ...X' }, 'layout'],
      [{ barcode_read: '3' }, 'barcode_read'],
      [{ barcode_read: '2' }, 'barcode_read'],
      [{ barcode_source: 'index-reads' }, 'index1'],
    ] as const) {
      const form = new FormData();
      form.append('name', 'bad');
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append(
        'annotation',
        new Blob(['Sample Name,Barcode,Organism,Category\nA,ACGTACGT,Homo sapiens,RNA\n']),
        's.csv',
      );
      form.append('file', new Blob(['@r1\nACGT\n+\nFFFF\n']), 'x.fastq');
      const res = await uploads.service.api('/api/upload/multiplexed', { method: 'POST', headers: auth(), body: form });
      const body = (await res.json()) as { code: string; status: number; details?: Record<string, unknown> };
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(body).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
      expect(JSON.stringify(body)).toContain(key);
    }
  });
});
