/**
 * One lane path, watched folders (issue 19 item 7): a run folder holding a lane sheet and one
 * multiplexed FASTQ becomes a lane through the same queue and the same service checks as the
 * Lane screen. The first run makes the lane; a second run whose sheet names the same samples is
 * refused before any sample is created, and the run's page says which names, not "registered".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../../src/main/core/runs/run-store';
import { WatcherService } from '../../../src/main/core/watchers/watcher-service';
import { generateLane, type GeneratedLane } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';
import { openQueue } from './queue-harness';
import { coreSuite } from './core-suite';
import { getLanes } from '../../../src/shared/service-api/endpoints';

const core = coreSuite({ prefix: 'laneway-watched-lane-' });

const scratch = tempDir('laneway-watched-lane-src-');

afterAll(() => scratch.remove());

async function writeRun(dir: string, gen: GeneratedLane, fastq: Buffer): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Samples');
  ws.addRow(['Sample Name', 'Barcode', 'Organism', 'Category']);
  for (const b of gen.barcodes) ws.addRow([b.name, b.barcode, 'Danio rerio', 'Total RNA']);
  writeFileSync(join(dir, 'lane-sheet.xlsx'), Buffer.from(await wb.xlsx.writeBuffer()));
  writeFileSync(join(dir, 'pool_R1.fastq'), fastq);
}

describe('watched folder: a lane run goes through the lane checks', () => {
  it('makes the first lane; refuses the second naming the samples already on the service', async () => {
    const gen = generateLane({ dir: scratch.path, reads: 900, samples: 3, kind: 'header', seed: 29 });
    const { readFileSync } = await import('node:fs');
    const fastq = readFileSync(gen.read1);
    const h = await openQueue(core.service);
    const runs = new RunStore(h.queue.store.db);
    const watchers = new WatcherService({ runs, queue: h.queue, reconcileMs: 300, debounceMs: 50 });
    await watchers.start();
    await watchers.add({ path: core.root, kind: 'generic', auto_upload: true, settle_seconds: 1, sample_metadata: {} });

    // The generic kind takes the run once nothing changed for the settle time; each run is
    // followed to its end (registered or failed) before the next is written.
    const settled = async (name: string) => {
      for (;;) {
        const run = watchers.runs().find((r) => r.name === name);
        if (run && (run.state === 'registered' || run.state === 'failed')) return run;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await writeRun(join(core.root, 'pool-1'), gen, fastq);
    const first = await settled('pool-1');
    expect(first.state, first.error ?? '').toBe('registered');

    await writeRun(join(core.root, 'pool-2'), gen, fastq);
    const second = await settled('pool-2');
    expect(second.state, JSON.stringify({ p: second.proposal?.kind, groups: h.queue.list().groups })).toBe('failed');
    expect(second.error).toMatch(/3 sample name\(s\) are already on the service/);
    expect(second.error).toMatch(/"S01" is already a sample on the service/);
    expect((await h.client.call(getLanes)).count).toBe(1);
    await watchers.stop();
    await h.close();
  }, 120_000);
});
