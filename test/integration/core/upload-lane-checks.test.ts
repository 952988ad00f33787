/**
 * One lane path: a sheet and a multiplexed FASTQ queued from the Uploads screen (or a watched
 * folder's proposal: both end in the same group finisher) go through the service's lane checks,
 * as the Lane screen, the CLI and the REST upload do. The issue's case: a sheet naming a few of
 * the lane's samples, so that 98.9% of the reads would be undetermined, is refused with the
 * cause and creates no lane and no sample; the same files with the sheet of every sample make
 * the lane, with the barcodes' placement chosen from the reads.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueLane } from '../../../src/main/core/ingest/confirm';
import { generateDesignLane } from '../../helpers/design-lane-generator';
import { openQueue } from './queue-harness';
import { coreSuite } from './core-suite';
import { getLanes, getLanesById, getSamples } from '../../../src/shared/service-api/endpoints';
import type { Lane } from '../../../src/shared/service-api/lanes';

const core = coreSuite({ prefix: 'laneway-lane-checks-' });

describe('uploads: a lane queued from Uploads goes through the lane checks', () => {
  const dir = join(core.root, 'gbs');
  // 90 GBS samples with inline barcodes and `1:N:0:` headers; the short sheet has one of them.
  const lane = () => {
    mkdirSync(dir, { recursive: true });
    const gen = generateDesignLane({ kind: 'gbs', reads: 2500, samples: 90, seed: 31, dir });
    const row = (s: { name: string; cell: string }) => `${s.name},${s.cell},Homo sapiens,Total RNA`;
    const short = join(dir, 'short.csv');
    writeFileSync(short, ['Sample Name,Barcode,Organism,Category', row(gen.samples[0]!)].join('\n') + '\n');
    const full = join(dir, 'full.csv');
    writeFileSync(full, ['Sample Name,Barcode,Organism,Category', ...gen.samples.map(row)].join('\n') + '\n');
    return { gen, short, full };
  };
  let made: ReturnType<typeof lane>;
  beforeAll(() => {
    made = lane();
  });

  it('refuses the lane that would be 98.9% undetermined, with the cause, creating nothing', async () => {
    const { gen, short } = made;
    const h = await openQueue(core.service);
    await enqueueLane(h.queue, { name: 'GBS short', file: gen.read1, annotation: short });
    await h.queue.waitForIdle();
    const refused = h.queue.list().groups[0]!;
    expect(refused).toMatchObject({ kind: 'lane', name: 'GBS short', state: 'failed' });
    expect(refused.error).toMatch(/Most reads match no sample .*9[89]\.\d% of the first 2500 undetermined/);
    const lanes = await h.client.call(getLanes);
    expect(lanes.count).toBe(0);
    expect((await h.client.call(getSamples)).count).toBe(0);
    await h.close();
  });

  it('makes the lane from the sheet of every sample, the placement chosen from the reads', async () => {
    const { gen, full } = made;
    const h = await openQueue(core.service);
    await enqueueLane(h.queue, { name: 'GBS', file: gen.read1, annotation: full });
    await h.queue.waitForIdle();
    const group = h.queue.list().groups.find((g) => g.name === 'GBS')!;
    expect(group.state, group.error ?? '').toBe('created');
    let lane: Lane | null = null;
    do {
      if (lane) await new Promise((r) => setTimeout(r, 100));
      lane = await h.client.call(getLanesById, { params: { id: group.created_id! } });
    } while (lane!.status === 'demultiplexing');
    expect(lane!.status).toBe('complete');
    expect(lane!.report!.detection!.chosen.id).toBe("inline:5'+0:r1");
    await h.close();
  });

  it('refuses a lane whose sample names are already on the service, naming them; ignore_warnings makes it', async () => {
    const { gen, full } = made;
    const h = await openQueue(core.service);
    await enqueueLane(h.queue, { name: 'GBS again', file: gen.read1, annotation: full });
    await h.queue.waitForIdle();
    const refused = h.queue.list().groups.find((g) => g.name === 'GBS again')!;
    expect(refused.state).toBe('failed');
    expect(refused.error).toMatch(/90 sample name\(s\) are already on the service/);
    expect(refused.error).toMatch(new RegExp(`row 2: "${gen.samples[0]!.name}" is already a sample on the service`));
    const lanesBefore = await h.client.call(getLanes);
    expect(lanesBefore.count).toBe(1);

    await enqueueLane(h.queue, { name: 'GBS again', file: gen.read1, annotation: full, ignore_warnings: true });
    await h.queue.waitForIdle();
    const made2 = h.queue
      .list()
      .groups.filter((g) => g.name === 'GBS again')
      .at(-1)!;
    expect(made2.state, made2.error ?? '').toBe('created');
    // The reads were on the service already: the second lane sent no byte of them again.
    expect(
      h.queue
        .list()
        .jobs.filter((j) => j.group_id === made2.id)
        .every((j) => j.state === 'completed'),
    ).toBe(true);
    await h.close();
  });

  it('queues a lane with the sheet as the Lane screen builds it (.xlsx bytes) and its demultiplexing fields', async () => {
    const { gen } = made;
    const h = await openQueue(core.service);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Samples');
    ws.addRow(['Sample Name', 'Barcode', 'Organism', 'Category']);
    for (const s of gen.samples) ws.addRow([`X_${s.name}`, s.cell, 'Homo sapiens', 'Total RNA']);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    await enqueueLane(h.queue, { name: 'GBS xlsx', file: gen.read1, annotation_xlsx: xlsx, mismatches: '0' });
    await h.queue.waitForIdle();
    const group = h.queue.list().groups.find((g) => g.name === 'GBS xlsx')!;
    expect(group.state, group.error ?? '').toBe('created');
    const lane = await h.client.call(getLanesById, { params: { id: group.created_id! } });
    expect(lane.segment_mismatches).toEqual([0]);
    expect(lane.samples[0]!.name).toBe(`X_${gen.samples[0]!.name}`);
    // Not an .xlsx: refused before any byte goes up.
    await expect(
      enqueueLane(h.queue, { name: 'bad', file: gen.read1, annotation_xlsx: Buffer.from('a,b').toString('base64') }),
    ).rejects.toThrow(/not an \.xlsx workbook/);
    await h.close();
  });
});
