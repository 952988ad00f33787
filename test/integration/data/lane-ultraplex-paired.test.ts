/**
 * A paired lane of Ultraplex's 5'+3' design through the REST lane upload (POST
 * /api/upload/multiplexed): the 3' barcode is found at read 2's start (reverse-complemented), as
 * Ultraplex -i2 reads it, and every sample gets the reads real Ultraplex gave it (the recorded
 * case in test/integration/demux/ultraplex-cases.ts), not only the short-insert ones.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { tempDir } from '../../helpers/temp';
import { generateUltraplexLane } from '../../helpers/ultraplex-lane-generator';
import { ULTRAPLEX_CASES } from '../demux/ultraplex-cases';

interface Lane {
  id: number;
  status: string;
  error: string | null;
  samples: Array<{ name: string; reads: number | null }>;
  report: { undetermined_reads?: number; detection?: { chosen: { id: string } } | null } | null;
}

describe("lanes: a paired Ultraplex lane through the REST upload, the 3' barcode on read 2", () => {
  const dir = tempDir();
  const suite = adminSuite('alice');
  afterAll(() => {
    dir.remove();
  });

  it("gives every sample Ultraplex's recorded pairs", async () => {
    const c = ULTRAPLEX_CASES.find((k) => k.lane.paired && k.lane.adapter)!;
    const laneDir = join(dir.path, 'lane');
    mkdirSync(laneDir);
    const gen = generateUltraplexLane({ ...c.lane, dir: laneDir });
    const auth = { authorization: `Bearer ${suite.admin.token}` };
    const form = new FormData();
    form.append('name', 'paired iCLIP');
    form.append('mismatches', '1,1');
    // The sheet's 5-base barcodes are warned about as short (easily confused), rightly: accepted.
    form.append('ignore_warnings', 'true');
    form.append('annotation', new Blob([readFileSync(gen.sheet)]), 'sheet.csv');
    form.append('file', new Blob([new Uint8Array(readFileSync(gen.read1))]), 'lane_R1.fastq.gz');
    form.append('file2', new Blob([new Uint8Array(readFileSync(gen.read2!))]), 'lane_R2.fastq.gz');
    const res = await suite.service.api('/api/upload/multiplexed', { method: 'POST', headers: auth, body: form });
    const body = (await res.json()) as Lane;
    expect(res.status, JSON.stringify(body)).toBe(202);
    let lane = body;
    // Polls the lane's status (the worker's end is the event; the count only bounds the wait).
    for (let i = 0; i < 600 && lane.status === 'demultiplexing'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      lane = (await (await suite.service.api(`/api/lanes/${body.id}`, { headers: auth })).json()) as Lane;
    }
    expect(lane.status, lane.error ?? '').toBe('complete');
    expect(lane.report!.detection!.chosen.id).toMatch(/^inline:5'\+\d:r1,3'@start:r2$/);
    const counts = Object.fromEntries(lane.samples.map((s) => [s.name, s.reads]));
    const { Undetermined: _, ...samples } = c.recorded;
    expect(counts).toEqual(samples);
  });
});
