/**
 * Issue 19 item 1: one test per Illumina row of docs/instruments.md, on run folders written as
 * each instrument and its analysis software write them (test/fixtures/instruments/
 * illumina-runs.ts cites the sources). Each row: what says "done" (and that the run is not
 * ready before it), where the FASTQs are found, how samples are named, lanes joined,
 * Undetermined and the instrument's own files left out quietly.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { propose } from '../../../src/main/core/ingest/propose';
import { assessRun } from '../../../src/main/core/runs/run-status';
import { writeBclConvertRun } from '../../fixtures/instruments/bcl-convert-run';
import { finishAnalysis, writeIlluminaRun, type IlluminaSpec } from '../../fixtures/instruments/illumina-runs';
import { tempDir } from '../../helpers/temp';

const root = tempDir('laneway-illumina-matrix-');
afterAll(() => root.remove());

const SETTLE = 300_000;
// Fixture files count as written a minute ago (past the 5 s quiet), or past the settle time.
const soon = () => Date.now() + 60_000;
const later = () => Date.now() + 2 * SETTLE;

interface Row {
  spec: IlluminaSpec;
  /** The note of the run once done. */
  done: RegExp;
  /** How the run waits before the analysis end file: a named file, or the settle time. */
  before: RegExp | 'settle';
  names: string[];
}

/** bcl2fastq's run folders: done at Stats/Stats.json past the settle time; v1 sheets name the samples. */
const BCL2FASTQ_END: Omit<Row, 'spec'> = {
  before: 'settle',
  done: /Stats\/Stats\.json \(bcl2fastq\)/,
  names: ['Liver_1', 'Liver_2'],
};
/** On-instrument DRAGEN: waits for either end file, done at Secondary_Analysis_Complete.txt; v2 sheets. */
const DRAGEN_END: Omit<Row, 'spec'> = {
  before: /waiting for Logs\/FastqComplete\.txt \(BCL Convert\) or Data\/Secondary_Analysis_Complete\.txt/,
  done: /Secondary_Analysis_Complete\.txt \(DRAGEN\)/,
  names: ['S1', 'S2'],
};

const ROWS: Row[] = [
  {
    spec: {
      family: 'MiSeq',
      instrument: 'M01234',
      flowcell: 'ABCDE',
      lanes: 1,
      software: 'MiSeq Reporter',
      application: 'MiSeq Control Software',
    },
    before: /waiting for CompletedJobInfo\.xml/,
    done: /CompletedJobInfo\.xml/,
    names: ['Liver_1', 'Liver_2'],
  },
  {
    spec: {
      family: 'MiSeq',
      instrument: 'M05678',
      flowcell: 'FGHIJ',
      lanes: 1,
      software: 'Local Run Manager',
      application: 'MiSeq Control Software',
    },
    before: 'settle',
    done: /CompletedJobInfo\.xml/,
    names: ['Liver_1', 'Liver_2'],
  },
  {
    spec: {
      family: 'MiniSeq',
      instrument: 'MN01234',
      flowcell: 'KLMNO',
      lanes: 1,
      software: 'Local Run Manager',
      application: 'MiniSeq Control Software',
      analysisDone: false,
    },
    before: 'settle',
    done: /unchanged for 5 min \(MiniSeq writes no copy marker/,
    names: ['Liver_1', 'Liver_2'],
  },
  {
    spec: {
      family: 'iSeq 100',
      instrument: 'FS10001234',
      flowcell: 'BPA12345',
      lanes: 1,
      software: 'Local Run Manager',
      application: 'iSeq Control Software',
      analysisDone: false,
    },
    before: 'settle',
    done: /unchanged for 5 min \(iSeq 100 writes no copy marker/,
    names: ['Liver_1', 'Liver_2'],
  },
  {
    spec: {
      family: 'NextSeq 500',
      instrument: 'NB501234',
      flowcell: 'HXXXXBGXY',
      lanes: 4,
      software: 'bcl2fastq',
      application: 'NextSeq Control Software',
    },
    ...BCL2FASTQ_END,
  },
  {
    spec: {
      family: 'NextSeq 550',
      instrument: 'NB551234',
      flowcell: 'HYYYYBGXY',
      lanes: 4,
      software: 'bcl2fastq',
      application: 'NextSeq Control Software',
      completionStatus: true,
    },
    ...BCL2FASTQ_END,
  },
  {
    spec: {
      family: 'NextSeq 1000/2000',
      instrument: 'VH01234',
      flowcell: 'AAAW2KJM5',
      lanes: 1,
      software: 'DRAGEN',
      application: 'NextSeq 2000',
      completionStatus: true,
      copyComplete: true,
    },
    ...DRAGEN_END,
  },
  {
    spec: {
      family: 'NovaSeq 6000',
      instrument: 'A01234',
      flowcell: 'HXXXXDSX7',
      lanes: 2,
      software: 'BCL Convert',
      application: 'NovaSeq Control Software',
      copyComplete: true,
    },
    before: /waiting for Logs\/FastqComplete\.txt/,
    done: /Logs\/FastqComplete\.txt \(BCL Convert\)/,
    names: ['S1', 'S2'],
  },
  {
    spec: {
      family: 'NovaSeq X',
      instrument: 'LH00123',
      flowcell: '22FFGGLT3',
      lanes: 2,
      software: 'DRAGEN',
      application: 'NovaSeqXPlus',
      completionStatus: true,
      copyComplete: true,
    },
    ...DRAGEN_END,
  },
  {
    spec: {
      family: 'HiSeq 2500',
      instrument: 'D00123',
      flowcell: 'C9XXXANXX',
      lanes: 2,
      software: 'bcl2fastq',
      application: 'HiSeq Control Software',
    },
    ...BCL2FASTQ_END,
  },
  {
    spec: {
      family: 'HiSeq 4000',
      instrument: 'K00123',
      flowcell: 'HXXXXBBXX',
      lanes: 2,
      software: 'bcl2fastq',
      application: 'HiSeq Control Software',
    },
    ...BCL2FASTQ_END,
  },
];

describe('Illumina instruments', () => {
  for (const row of ROWS)
    it(`${row.spec.family} with ${row.spec.software}: ${row.before === 'settle' ? 'RTAComplete, FASTQs, then the settle time' : 'waits for its marker'}; ${row.done}`, async () => {
      const parent = join(root.path, row.spec.instrument);
      const analysisDone = row.spec.analysisDone;
      const run = writeIlluminaRun(parent, { ...row.spec, analysisDone: false });
      // Before the analysis software's end file: never ready within the settle time.
      const waiting = await assessRun(run.dir, 'illumina', SETTLE, soon());
      expect(waiting.state).toBe('copying');
      if (row.before === 'settle') {
        expect(waiting.note).toMatch(/ready once nothing has changed for 5 min/);
        expect(waiting.recheckAt).toBeGreaterThan(Date.now());
      } else expect(waiting.note).toMatch(row.before);
      if (analysisDone !== false) finishAnalysis(run);
      const ready = await assessRun(run.dir, 'illumina', SETTLE, analysisDone === false ? later() : soon());
      expect(ready).toMatchObject({ state: 'ready' });
      expect(ready.note).toMatch(row.done);

      const p = await propose([run.dir]);
      expect(p.run?.kind).toBe('illumina');
      expect(p.samples.map((s) => s.name)).toEqual(row.names);
      const lanes = row.spec.lanes;
      for (const s of p.samples) {
        expect(s.read2).toMatch(/_R2_001\.fastq\.gz$/);
        expect(s.read1_parts?.length ?? 1).toBe(lanes);
        if (lanes > 1) expect(s.metadata?.lanes).toBe(Array.from({ length: lanes }, (_, i) => i + 1).join('+'));
      }
      // Provenance: RunInfo.xml's run id, instrument and flow cell; the sheet's index pair,
      // Sample_Project, and (v1 sheets here carry them) the lab's Organism and Category.
      const v1 = row.names[0] === 'Liver_1';
      expect(p.samples[1]!.metadata).toMatchObject({
        run_id: run.runId,
        instrument: `${row.spec.instrument} (${row.spec.family === 'NextSeq 500' || row.spec.family === 'NextSeq 550' ? 'NextSeq 500/550' : row.spec.family === 'HiSeq 4000' ? 'HiSeq 3000/4000' : row.spec.family})`,
        flowcell: row.spec.flowcell,
        index: 'GATCGATC+AACCGGTT',
        sample_project: 'Hepato',
        lanes: Array.from({ length: lanes }, (_, i) => i + 1).join('+'),
        ...(v1 ? { organism: 'Mus musculus', category: 'RNA' } : {}),
      });
      expect(p.ignored.some((f) => /Undetermined_S0_L001_R1_001/.test(f))).toBe(true);
      // Errors.log, InterOp, RTAComplete, CompletedJobInfo ...: recognised, never a warning line.
      expect(p.warnings.filter((w) => w.code === 'not-fastq')).toEqual([]);
    });

  it('NextSeq 1000/2000 (which writes CopyComplete.txt) is not ready without it, even with its analysis done', async () => {
    const run = writeIlluminaRun(join(root.path, 'copy'), { ...ROWS[6]!.spec, copyComplete: false });
    expect(await assessRun(run.dir, 'illumina', SETTLE, soon())).toMatchObject({
      state: 'copying',
      note: 'waiting for CopyComplete.txt',
    });
  });
});

describe('a requeued on-instrument analysis', () => {
  it('NovaSeq X Analysis/2 supersedes Analysis/1: the newest FASTQs only, the older ones named once', async () => {
    const run = writeIlluminaRun(join(root.path, 'requeue'), ROWS[8]!.spec);
    const first = join(run.dir, 'Analysis', '1');
    cpSync(first, join(run.dir, 'Analysis', '2'), { recursive: true });
    const p = await propose([run.dir]);
    expect(p.samples.map((s) => s.name)).toEqual(['S1', 'S2']);
    for (const s of p.samples) for (const f of s.read1_parts!) expect(f).toContain(join('Analysis', '2', 'Data'));
    const w = p.warnings.filter((x) => x.code === 'superseded-analysis');
    expect(w).toHaveLength(1);
    expect(w[0]!.message).toMatch(/^8 FASTQ files of an earlier analysis/);
  });
});

describe("BCL Convert's output folder dropped on its own", () => {
  it('recognises its logs and reports quietly (no line per file), and still warns about a stray file', async () => {
    const run = writeBclConvertRun(join(root.path, 'out-only'), '261124_A01234_0050_AHOUTDSX7');
    // BCL Convert's "Output Files": Logs/Errors.log, Info.log, Warnings.log; Reports/*.csv and html.
    for (const f of [
      'Logs/Errors.log',
      'Logs/Info.log',
      'Logs/Warnings.log',
      'Reports/fastq_list.csv',
      'Reports/RunInfo.xml',
    ])
      writeFileSync(join(run.out, ...f.split('/')), 'x\n');
    writeFileSync(join(run.out, 'notes.txt'), 'mine\n');
    const p = await propose([run.out]);
    expect(p.run).toBeNull();
    expect(p.samples.map((s) => s.name)).toEqual(['Ctrl1', 'Treat1']);
    expect(p.warnings.filter((w) => w.code === 'not-fastq').map((w) => w.message)).toEqual([
      'notes.txt is not a FASTQ file and will not be uploaded',
    ]);
  });
});
