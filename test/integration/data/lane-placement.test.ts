/**
 * The REST lane upload (POST /api/upload/multiplexed) without ignore_warnings chooses where the
 * barcodes are from the lane's first reads, as `laneway demux` does: the GBS lane of the issue
 * (96 samples, 9-13 base inline barcodes, `1:N:0:` headers) gives axe-demultiplexer's counts,
 * and 3' barcodes before the adapter and barcodes on read 2 are found. A lane that would be
 * mostly undetermined is refused with the cause before anything is created, and a lane whose
 * samples would all be empty never ends `complete`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { axeCounts } from '../../helpers/axe';
import type { DesignLaneSpec } from '../../helpers/design-lane-generator';
import { designLaneUploads } from './design-lane-uploads';

interface Lane {
  id: number;
  status: string;
  error: string | null;
  samples: Array<{ name: string; sample_id: number | null; reads: number | null }>;
  report: {
    source: string;
    barcode_read: number | null;
    undetermined_reads: number;
    detection: { chosen: { id: string }; runner_up: { id: string; fraction: number } | null };
  } | null;
}

const TRUSEQ = 'AGATCGGAAGAGCACACGTCTGAACTCCAGTCAC';

describe('lanes: where the barcodes are, from the reads, through the REST lane upload', () => {
  const uploads = designLaneUploads();
  const { auth } = uploads;

  const post = async (spec: Omit<DesignLaneSpec, 'dir'>, fields: Record<string, string> = {}) => {
    const { gen, laneDir, res } = await uploads.post(spec, fields);
    return {
      gen,
      laneDir,
      res,
      body: (await res.json()) as Lane & { code?: string; error?: string; warnings?: Array<{ message: string }> },
    };
  };
  const settle = async (id: number): Promise<Lane> => {
    for (;;) {
      const lane = (await (await uploads.service.api(`/api/lanes/${id}`, { headers: auth() })).json()) as Lane;
      if (lane.status !== 'demultiplexing') return lane;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const sampleCount = async () =>
    ((await (await uploads.service.api('/api/samples/?per_page=1', { headers: auth() })).json()) as { count: number })
      .count;

  it("GBS lane without ignore_warnings: inline 5', axe's counts, runner-up in the report", async () => {
    const { gen, laneDir, res, body } = await post({ kind: 'gbs', reads: 3000, samples: 96, seed: 5 });
    expect(res.status, JSON.stringify(body)).toBe(202);
    const lane = await settle(body.id);
    expect(lane.status, lane.error ?? '').toBe('complete');
    expect(lane.report!.detection.chosen.id).toBe("inline:5'+0:r1");
    expect(lane.report!.detection.runner_up!.fraction).toBeLessThan(0.1);
    const axe = axeCounts(gen.read1, gen.samples, join(laneDir, 'axe'));
    expect(Object.fromEntries(lane.samples.map((s) => [s.name, s.reads]))).toEqual(axe.counts);
    expect(lane.report!.undetermined_reads).toBe(axe.undetermined);
  });

  it("3' barcodes before the adapter, and barcodes on read 2", async () => {
    const three = await post({ kind: 'inline3', reads: 2000, samples: 6, seed: 46, adapter: TRUSEQ, insert: [10, 50] });
    expect(three.res.status, JSON.stringify(three.body)).toBe(202);
    // The second lane is another technician's: both name their samples S01.., and a name
    // already on the service (or still being demultiplexed into one) refuses a lane.
    const a = await settle(three.body.id);
    await uploads.nextTechnician();
    const r2 = await post({ kind: 'gbs', reads: 2000, samples: 8, seed: 47, barcodeRead: 2 });
    expect(r2.res.status, JSON.stringify(r2.body)).toBe(202);
    expect(a.status, a.error ?? '').toBe('complete');
    expect(a.report!.detection.chosen.id).toBe("inline:3'@adapter:r1");
    expect(a.report!.undetermined_reads).toBeLessThan(100);
    const b = await settle(r2.body.id);
    expect(b.status, b.error ?? '').toBe('complete');
    expect(b.report!.detection.chosen.id).toBe("inline:5'+0:r2");
    expect(b.report!.barcode_read).toBe(2);
  });

  it('told the barcodes are in the header: refused with the cause before anything is created', async () => {
    const before = await sampleCount();
    const { res, body } = await post({ kind: 'gbs', reads: 3000, samples: 12, seed: 48 }, { barcode_source: 'header' });
    expect(res.status).toBe(409);
    expect(body.code).toBe('ANNOTATION_WARNINGS');
    expect(body.error).toMatch(/The barcodes are inline at the 5' end of read 1, not in the read header/);
    expect(body.warnings!.at(-1)!.message).toMatch(/^The barcodes are inline at the 5' end/);
    const lanes = (await (await uploads.service.api('/api/lanes/', { headers: auth() })).json()) as { items: Lane[] };
    expect(lanes.items.map((l) => l.id)).not.toContain(body.id);
    expect(await sampleCount()).toBe(before);
  });

  it('with ignore_warnings, a lane whose samples are all empty fails and creates no sample', async () => {
    const before = await sampleCount();
    const { res, body } = await post(
      { kind: 'gbs', reads: 3000, samples: 12, seed: 49 },
      { barcode_source: 'header', ignore_warnings: 'true' },
    );
    expect(res.status, JSON.stringify(body)).toBe(202);
    const lane = await settle(body.id);
    expect(lane.status).toBe('failed');
    expect(lane.error).toMatch(/No read matched any sample .*inline at the 5' end of read 1, not in the read header/);
    expect(lane.samples.every((s) => s.sample_id === null)).toBe(true);
    expect(await sampleCount()).toBe(before);
  });
});
