/**
 * Issue 19 item 1: the MGI DNBSEQ and Element AVITI rows of docs/instruments.md, on folders
 * written as those instruments write them (fixtures cite their sources): what says "done",
 * the samples proposed, what is joined and what is left out.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { propose } from '../../../src/main/core/ingest/propose';
import { assessRun } from '../../../src/main/core/runs/run-status';
import { writeElementRun } from '../../fixtures/instruments/element-run';
import { MGI_FLOWCELL, MGI_MACHINE, writeMgiRun } from '../../fixtures/instruments/mgi-run';
import { gz } from '../../fixtures/instruments/fastq-records';
import { tempDir } from '../../helpers/temp';

const root = tempDir('laneway-mgi-element-');
afterAll(() => root.remove());
const SETTLE = 300_000;

describe('MGI DNBSEQ G400/T7', () => {
  it('waits for every lane summary report, then the settle time; one sample per barcode with its lanes joined, undecoded left out', async () => {
    const run = writeMgiRun(join(root.path, 'mgi'), [1]);
    const waiting = await assessRun(run.dir, 'generic', SETTLE, Date.now() + 2 * SETTLE);
    expect(waiting).toMatchObject({ state: 'copying' });
    expect(waiting.note).toMatch(/summaryReport\.html\) of L02/);
    writeFileSync(join(run.laneDir(2), `${MGI_FLOWCELL}_L02.summaryReport.html`), '<html></html>\n');
    expect((await assessRun(run.dir, 'generic', SETTLE, Date.now() + 60_000)).state).toBe('copying');
    expect((await assessRun(run.dir, 'generic', SETTLE, Date.now() + 2 * SETTLE)).state).toBe('ready');

    const p = await propose([run.dir]);
    expect(p.samples.map((s) => [s.name, s.metadata?.lanes])).toEqual([
      [`${MGI_FLOWCELL}_59`, '1+2'],
      [`${MGI_FLOWCELL}_60`, '1+2'],
    ]);
    const s = p.samples[0]!;
    expect(s.read1_parts?.map((x) => x.split('/').pop())).toEqual([
      `${MGI_FLOWCELL}_L01_59_1.fq.gz`,
      `${MGI_FLOWCELL}_L02_59_1.fq.gz`,
    ]);
    expect(s.read2).toMatch(/_L01_59_2\.fq\.gz$/);
    expect(p.ignored.filter((f) => /_undecoded_[12]\.fq\.gz$/.test(f))).toHaveLength(4);
    // The lane files (reports, statistics, BioInfo.csv, summaryTable.csv): recognised quietly.
    expect(p.warnings.filter((w) => w.code === 'not-fastq')).toEqual([]);
    // Provenance from the lanes' BioInfo.csv and the file names.
    expect(s.metadata).toMatchObject({
      instrument: `${MGI_MACHINE} (MGI DNBSEQ)`,
      flowcell: MGI_FLOWCELL,
      barcode: '59',
      lanes: '1+2',
    });
  });

  it('a lane written without barcode splitting (_read_1.fq.gz) is one sample per lane, not a barcode "read"', async () => {
    const lane = join(root.path, 'unsplit', MGI_FLOWCELL, 'L03');
    mkdirSync(lane, { recursive: true });
    const fq = gz(`@${MGI_FLOWCELL}L3C001R0010000001/1\nACGT\n+\nFFFF\n`);
    for (const r of [1, 2]) writeFileSync(join(lane, `${MGI_FLOWCELL}_L03_read_${r}.fq.gz`), fq);
    const p = await propose([join(root.path, 'unsplit', MGI_FLOWCELL)]);
    expect(p.samples.map((x) => [x.name, x.metadata?.barcode])).toEqual([[`${MGI_FLOWCELL}_L03`, undefined]]);
  });
});

describe('Element AVITI', () => {
  it("is ready on RunUploaded.json OutcomeCompleted and Bases2Fastq's RunStats.json; one sample per manifest sample from Samples/<project>/<sample>/", async () => {
    const dir = writeElementRun(join(root.path, 'el'), '20261124_AV234501_A2345678');
    expect((await assessRun(dir, 'element', SETTLE, Date.now() + 60_000)).state).toBe('ready');
    const p = await propose([dir]);
    expect(p.samples.map((s) => [s.name, s.project])).toEqual([
      ['Liver_01', 'Hepato'],
      ['Liver_02', 'Hepato'],
    ]);
    // Bases2Fastq not finished (no RunStats.json beside Samples/): not ready yet.
    rmSync(join(dir, 'RunStats.json'));
    expect((await assessRun(dir, 'element', SETTLE, Date.now() + 60_000)).note).toMatch(/RunStats\.json/);
    rmSync(join(dir, 'RunUploaded.json'));
    expect((await assessRun(dir, 'element', SETTLE, Date.now() + 60_000)).state).toBe('sequencing');
  });
});
