import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/shared/desktop-api/contract';
import { RunStore } from '../../../src/main/core/runs/run-store';
import { WatcherService } from '../../../src/main/core/watchers/watcher-service';
import { tempDir } from '../../helpers/temp';
import { openQueue, sha256Of, writeFastq } from './queue-harness';
import { coreSuite, until } from './core-suite';
import { getSamplesById } from '../../../src/shared/service-api/endpoints';

const core = coreSuite({ prefix: 'laneway-instrument-' });

const scratch = tempDir('laneway-scratch-');

afterAll(() => scratch.remove());

function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(`${p}:${statSync(p).size}:${statSync(p).mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}

describe('watched Illumina folder written slowly', () => {
  it('uploads the run only once its markers say it is complete, and never writes into it', async () => {
    const h = await openQueue(core.service);
    const runs = new RunStore(h.queue.store.db);
    const events: Run[] = [];
    const watchers = new WatcherService({
      runs,
      queue: h.queue,
      reconcileMs: 300,
      debounceMs: 50,
      emit: (event, payload) => {
        if (event === 'runs:changed') events.push(payload as Run);
      },
    });
    await watchers.start();
    await watchers.add({
      path: core.root,
      kind: 'illumina',
      auto_upload: true,
      settle_seconds: 1,
      sample_metadata: { organism: 'Homo sapiens', category: 'DNA' },
    });

    const run = join(core.root, '261121_M00001_0001_000000000-ABCDE');
    const fastqDir = join(run, 'Analysis', '1', 'Data', 'fastq');
    mkdirSync(fastqDir, { recursive: true });
    writeFileSync(join(run, 'RunInfo.xml'), '<RunInfo><Run Id="x"/></RunInfo>');
    writeFileSync(
      join(run, 'SampleSheet.csv'),
      '[Header]\nFileFormatVersion,2\n[BCLConvert_Data]\nSample_ID,Index\nLiver,ACGT\n',
    );
    // Reads grow in pieces while the instrument is still writing.
    const r1 = join(fastqDir, 'Liver_S1_L001_R1_001.fastq');
    const r2 = join(fastqDir, 'Liver_S1_L001_R2_001.fastq');
    const piece = join(scratch.path, 'piece.fastq');
    // After each write the test waits until the watcher has looked at the run since (the newest
    // change it recorded is that write's), then checks that nothing was queued.
    const seen = (file: string) => until(() => (runs.runs()[0]?.last_change ?? 0) >= statSync(file).mtimeMs);
    const note = (text: string) => until(() => !!watchers.runs()[0]?.timeline.at(-1)?.note?.includes(text));
    for (let i = 0; i < 5; i++) {
      writeFastq(piece, 300, `p${i}`);
      appendFileSync(r1, readFileSync(piece));
      writeFastq(piece, 300, `q${i}`);
      appendFileSync(r2, readFileSync(piece));
      await seen(r2);
      expect(h.queue.list().jobs).toHaveLength(0);
    }
    writeFileSync(join(run, 'RTAComplete.txt'), '');
    await note('waiting for CopyComplete.txt');
    writeFileSync(join(run, 'CopyComplete.txt'), '');
    await note('FASTQ files present; waiting for Logs/FastqComplete.txt');
    expect(h.queue.list().jobs).toHaveLength(0); // FASTQ generation has not finished yet
    const before = snapshot(run);
    mkdirSync(join(run, 'Analysis', '1', 'Data'), { recursive: true });
    writeFileSync(join(run, 'Analysis', '1', 'Data', 'Secondary_Analysis_Complete.txt'), '');
    const final = snapshot(run);
    expect(final.length).toBe(before.length + 1);

    await until(() => watchers.runs()[0]?.state === 'registered');
    const detected = watchers.runs()[0]!;
    expect(detected.timeline.map((t) => t.state)).toEqual([
      'detected',
      'sequencing',
      'copying',
      'ready',
      'uploading',
      'verified',
      'registered',
    ]);
    const jobs = h.queue.list().jobs;
    expect(jobs.map((j) => [j.role, j.checksum])).toEqual([
      ['read1', sha256Of(r1)],
      ['read2', sha256Of(r2)],
    ]);
    const sample = await h.client.call(getSamplesById, { params: { id: h.queue.list().groups[0]!.created_id! } });
    expect(sample).toMatchObject({ name: 'Liver', read1: jobs[0]!.data_id, read2: jobs[1]!.data_id });
    expect(snapshot(run)).toEqual(final); // the watcher only read the instrument folder
    expect(events.some((e) => e.state === 'ready')).toBe(true);

    await watchers.stop();
    await h.close();
  }, 90_000);
});
