/**
 * Issue 19 item 1: the MGI DNBSEQ and Element AVITI rows of docs/instruments.md, on folders
 * written as those instruments write them (fixtures cite their sources): what says "done",
 * the samples proposed, what is joined and what is left out.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { propose } from '../../../src/main/core/ingest/propose';
import { assessRun } from '../../../src/main/core/runs/run-status';
import { ELEMENT_FLOWCELL, ELEMENT_INSTRUMENT, writeElementRun } from '../../fixtures/instruments/element-run';
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

  it("with --split-lanes, joins a sample's per-lane files into one sample in lane order; Unassigned and the PhiX control stay with the run", async () => {
    const dir = writeElementRun(join(root.path, 'el-split'), '20261125_AV234501_B2345679', {
      layout: 'split-lanes',
      phix: true,
    });
    expect((await assessRun(dir, 'element', SETTLE, Date.now() + 60_000)).state).toBe('ready');
    const p = await propose([dir]);
    expect(p.samples.map((s) => [s.name, s.project, s.metadata?.lanes, s.metadata?.index])).toEqual([
      ['Liver_01', 'Hepato', '1+2', 'ATCACGAT+CGATGTTC'],
      ['Liver_02', 'Hepato', '1', 'TTAGGCAT+TGACCAGA'],
    ]);
    const liver = p.samples[0]!;
    const base = (x: string) => x.split('/').pop();
    expect(liver.read1_parts?.map(base)).toEqual(['Liver_01_L1_R1.fastq.gz', 'Liver_01_L2_R1.fastq.gz']);
    expect(liver.read2_parts?.map(base)).toEqual(['Liver_01_L1_R2.fastq.gz', 'Liver_01_L2_R2.fastq.gz']);
    // The joined parts are the lanes' reads in lane order (lane is the 4th field of the read name).
    const lanesOf = (files: string[]) =>
      files.flatMap((f) =>
        gunzipSync(readFileSync(f))
          .toString()
          .split('\n')
          .filter((l) => l.startsWith('@'))
          .map((l) => Number(l.split(':')[3])),
      );
    expect([...new Set(lanesOf(liver.read1_parts!))]).toEqual([1, 2]);
    expect(p.samples[1]!.read1_parts).toBeUndefined();
    expect(base(p.samples[1]!.read1)).toBe('Liver_02_L1_R1.fastq.gz');
    // Unassigned_L1/L2 and PhiX_L1/L2 (R1 and R2): never samples, one line each, no per-file warnings.
    expect(p.ignored.filter((f) => /Unassigned_L[12]_R[12]\.fastq\.gz$/.test(f))).toHaveLength(4);
    expect(p.ignored.filter((f) => /PhiX_L[12]_R[12]\.fastq\.gz$/.test(f))).toHaveLength(4);
    // Bases2Fastq's RunStats.json: 20 of the 70 polonies unassigned.
    expect(p.report?.undetermined).toMatchObject({ reads: 20, fraction: 20 / 70 });
    expect(p.warnings.filter((w) => w.code === 'undetermined').map((w) => w.message)).toEqual([
      expect.stringMatching(/^4 Unassigned files \(28\.6% of the run's reads\) stay with the run/),
      expect.stringMatching(/^4 PhiX control files/),
    ]);
    expect(p.warnings.filter((w) => ['not-fastq', 'unpaired-read', 'duplicate-name'].includes(w.code))).toEqual([]);
  });

  it('without --split-lanes, one file per read holds every lane; PhiX written as a sample folder is left out too', async () => {
    const dir = writeElementRun(join(root.path, 'el-default'), '20261125_AV234501_A2345680', { phix: true });
    const p = await propose([dir]);
    expect(p.samples.map((s) => [s.name, s.read1.split('/').pop(), s.read1_parts])).toEqual([
      ['Liver_01', 'Liver_01_R1.fastq.gz', undefined],
      ['Liver_02', 'Liver_02_R1.fastq.gz', undefined],
    ]);
    // Provenance: the run folder's name, RunParameters.json's instrument and flow cell, the manifest's index.
    expect(p.samples[0]!.metadata).toMatchObject({
      run_id: '20261125_AV234501_A2345680',
      instrument: `${ELEMENT_INSTRUMENT} (Element AVITI)`,
      flowcell: ELEMENT_FLOWCELL,
      index: 'ATCACGAT+CGATGTTC',
      lanes: '1+2',
      sample_project: 'Hepato',
    });
    expect(p.ignored.filter((f) => /\/Samples\/(Unassigned|PhiX)\//.test(f))).toHaveLength(4);
  });

  it('with --legacy-fastq (grouped, in Demultiplexing/), Illumina-style lane files are joined and Undetermined_S0 stays with the run', async () => {
    const dir = writeElementRun(join(root.path, 'el-legacy'), '20261125_AV234501_A2345681', {
      layout: 'legacy-grouped',
    });
    expect((await assessRun(dir, 'element', SETTLE, Date.now() + 60_000)).state).toBe('ready');
    const p = await propose([dir]);
    expect(p.samples.map((s) => [s.name, s.project, s.metadata?.lanes, s.read1_parts?.length])).toEqual([
      ['Liver_01', 'Hepato', '1+2', 2],
      ['Liver_02', 'Hepato', '1', undefined],
    ]);
    expect(p.ignored.filter((f) => /Undetermined_S0_L00[12]_R[12]_001\.fastq\.gz$/.test(f))).toHaveLength(4);
    // RunStats.json with its counts per lane (Lanes[]): 20 of 40 polonies unassigned.
    expect(p.report?.undetermined).toMatchObject({ reads: 20, fraction: 0.5 });
    // Bases2Fastq still running (no RunStats.json in its output folder): not ready.
    rmSync(join(dir, 'Demultiplexing', 'RunStats.json'));
    expect((await assessRun(dir, 'element', SETTLE, Date.now() + 60_000)).state).toBe('copying');
  });

  it("Bases2Fastq's own output folder (<run>_b2f, no RunUploaded.json) is ready on its RunStats.json; its reports and .gzi indexes are recognised quietly", async () => {
    const dir = writeElementRun(join(root.path, 'el-b2f'), '20261125_AV234501_A2345682', {
      separateOutput: true,
      bgzf: true,
    });
    const out = `${dir}_b2f`;
    expect((await assessRun(out, 'element', SETTLE, Date.now() + 60_000)).state).toBe('ready');
    const p = await propose([out]);
    expect(p.run?.kind).toBe('element');
    expect(p.samples.map((s) => [s.name, s.project, s.metadata?.flowcell])).toEqual([
      ['Liver_01', 'Hepato', ELEMENT_FLOWCELL],
      ['Liver_02', 'Hepato', ELEMENT_FLOWCELL],
    ]);
    // A project folder dropped on its own (no run around it): no line per report or index file.
    const project = await propose([join(out, 'Samples', 'Hepato')]);
    expect(project.samples.map((s) => s.name)).toEqual(['Liver_01', 'Liver_02']);
    expect(project.warnings.filter((w) => w.code === 'not-fastq')).toEqual([]);
    // Still being written (no RunStats.json at its root yet): not ready.
    rmSync(join(out, 'RunStats.json'));
    expect((await assessRun(out, 'element', SETTLE, Date.now() + 60_000)).state).not.toBe('ready');
  });
});
