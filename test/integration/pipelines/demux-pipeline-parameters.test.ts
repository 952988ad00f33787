/**
 * The Demultiplexing pipeline refuses, at launch and field by field, the combinations of its
 * parameters that once ran on other inputs than the ones given (barcodes beside a sheet won
 * silently, index read 2 alone was ignored, one record as read 1 and read 2 was paired with
 * itself) or failed minutes later (no sheet and no barcodes). Each was launched and completed
 * (or failed in the worker) before this check; a sound launch still runs.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateLane } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

describe('Demultiplexing parameters that do not fit together are refused at launch', () => {
  let kit: Kit;
  let version: number;
  const scratch = tempDir('laneway-demux-params-');
  afterAll(async () => {
    await kit?.stop();
    scratch.remove();
  });
  beforeAll(async () => {
    kit = await startKit();
    version = await kit.latestVersion('Demultiplexing');
  });

  it('names the field and the reason for each, and runs the sound launch', async () => {
    const l = generateLane({ dir: scratch.path, reads: 300, samples: 3, kind: 'inline', readLength: 60, seed: 9 });
    const input = await kit.upload(kit.adminToken, 'lane_R1.fastq', readFileSync(l.read1));
    const other = await kit.upload(kit.adminToken, 'lane_I1.fastq', '@r1\nACGTACGT\n+\nIIIIIIII\n');
    const barcodes = l.barcodes.map((b) => `${b.name}=${b.barcode}`);
    const sheet = await kit.keepSheet(
      kit.adminToken,
      'lane.csv',
      `Sample Name,Barcode,Organism,Category\n${l.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,RNA`).join('\n')}\n`,
    );
    const layout = 'NNNXXXXXXNN';
    const cases: Array<[string, Record<string, unknown>, Record<string, string>]> = [
      ['no sheet and no barcodes', { input, layout }, { annotation: 'give an annotation sheet, or the barcodes' }],
      [
        'no sheet and an empty barcode list',
        { input, layout, barcodes: [] },
        { annotation: 'give an annotation sheet, or the barcodes' },
      ],
      [
        'a sheet and barcodes',
        { input, layout, barcodes, annotation: sheet },
        { barcodes: 'give the barcodes or an annotation sheet, not both' },
      ],
      [
        'index read 2 without index read 1',
        { input, layout, barcodes, index_read2: other },
        { index_read2: 'needs index read 1 (index_read1) too' },
      ],
      [
        'the lane as read 1 and read 2',
        { input, layout, barcodes, input_read2: input },
        { input_read2: 'must be another file than input' },
      ],
      [
        'one file as both index reads',
        { input, layout, barcodes, index_read1: other, index_read2: other },
        { index_read2: 'must be another file than index_read1' },
      ],
    ];
    for (const [what, parameters, fields] of cases) {
      const run = await kit.run(kit.adminToken, version, { parameters });
      expect(run.status, `${what}: ${JSON.stringify(run.body)}`).toBe(400);
      expect(run.body, what).toMatchObject({ code: 'INVALID_PARAMETERS', status: 400, fields });
    }
    const executions = await kit.api<{ items: unknown[] }>('/api/executions/', kit.adminToken);
    expect(executions.body.items).toHaveLength(0);

    const run = await kit.run(kit.adminToken, version, { parameters: { input, layout, annotation: sheet } });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 120_000);
    expect(done.status, JSON.stringify(done.logs)).toBe('completed');
  });
});
