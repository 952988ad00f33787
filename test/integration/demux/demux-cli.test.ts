import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliToEnd } from '../../helpers/cli';
import { compareWithTruth, generateLane, type GeneratedLane } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';

function csvSheet(lane: GeneratedLane, path: string, barcode = (b: string) => b): void {
  const lines = ['Sample Name,Barcode,Organism,Category,Notes'];
  for (const r of lane.rows) {
    lines.push(`${r.values['Sample Name']},${barcode(r.values.Barcode!)},Homo sapiens,RNA,"cells, fresh"`);
  }
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
}

/** `laneway demux --sheet SHEET --input READ1 --out OUT [more...]`, run to its end. */
const demux = (sheet: string, read1: string, out: string, ...more: string[]) =>
  runCliToEnd(['demux', '--sheet', sheet, '--input', read1, '--out', out, ...more]);

describe('laneway demux', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('demultiplexes a paired gzip lane with full Ultraplex barcodes and prints per-sample counts', async () => {
    const laneDir = join(dir.path, 'a');
    mkdirSync(laneDir);
    const lane = generateLane({
      dir: laneDir,
      kind: 'inline',
      reads: 3000,
      samples: 5,
      paired: true,
      gzip: true,
      seed: 21,
    });
    const sheet = join(laneDir, 'sheet.csv');
    csvSheet(lane, sheet, (b) => `NNN${b}NN`); // the layout written into each barcode
    const out = join(laneDir, 'out');
    const r = await runCliToEnd([
      'demux',
      '--sheet',
      sheet,
      '--input',
      lane.read1,
      '--input2',
      lane.read2!,
      '--out',
      out,
      '--mismatches',
      '1',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'demux-report.json'), 'utf8')) as {
      samples: Array<{ name: string; reads: number; files: string[] }>;
      undetermined_reads: number;
    };
    for (const s of report.samples) {
      expect(r.stdout).toMatch(new RegExp(`^${s.name}\\s+[ACGT]{6}\\s+${s.reads}\\s`, 'm'));
      for (const f of s.files) expect(existsSync(join(out, f))).toBe(true);
    }
    expect(r.stdout).toMatch(new RegExp(`^Undetermined\\s+${report.undetermined_reads}\\s`, 'm'));
    expect(r.stdout).toMatch(/3000 reads \(paired, inline barcodes NNNXXXXXXNN, 1 mismatch allowed\)/);
    const cmp = compareWithTruth(lane.truth, [
      ...report.samples.map((s) => ({ sample: s.name, path: join(out, s.files[0]!) })),
      { sample: 'Undetermined', path: join(out, 'Undetermined_R1.fastq.gz') },
    ]);
    expect(cmp.disagreements).toBe(0);
  });

  it('writes plain output on request and reads header indexes with --barcodes header', async () => {
    const laneDir = join(dir.path, 'b');
    mkdirSync(laneDir);
    const lane = generateLane({ dir: laneDir, kind: 'header', reads: 500, samples: 3, gzip: true, seed: 22 });
    const sheet = join(laneDir, 'sheet.csv');
    csvSheet(lane, sheet);
    const out = join(laneDir, 'out');
    const r = await demux(sheet, lane.read1, out, '--no-gzip', '--barcodes', 'header', '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { source: string; gzip: boolean; total_reads: number };
    expect(report).toMatchObject({ source: 'header', gzip: false, total_reads: 500 });
    expect(readFileSync(join(out, 'S01.fastq'), 'latin1').startsWith('@gen.')).toBe(true);
  });

  it('prints each sheet issue with row and column and exits 1; bad usage exits 2', async () => {
    const laneDir = join(dir.path, 'c');
    mkdirSync(laneDir);
    const lane = generateLane({ dir: laneDir, kind: 'header', reads: 10, samples: 3, seed: 23 });
    const sheet = join(laneDir, 'bad.csv');
    writeFileSync(
      sheet,
      'Sample Name,Barcode,Organism,Category\nS1,ACGTACGT,Homo sapiens,RNA\nS1,ACGTACGA,Homo sapiens,\nS/3,ACGTXCGT,Homo sapiens,RNA\n',
    );
    const out = join(laneDir, 'out');
    const bad = await demux(sheet, lane.read1, out, '--mismatches', '1');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/error: row 3, Sample Name: Sample name "S1" repeats row 2/);
    expect(bad.stderr).toMatch(/error: row 3, Category: Category is required/);
    expect(bad.stderr).toMatch(
      /error: row 3, Barcode: Barcodes ACGTACGT \(row 2, S1\) and ACGTACGA \(row 3, S1\) are 1 apart/,
    );
    expect(bad.stderr).toMatch(/error: row 4, Barcode: Barcode "ACGTXCGT" has characters outside/);
    expect(bad.stderr).toMatch(/error: row 4, Sample Name: Sample name "S\/3" contains "\/"/);
    expect(existsSync(out)).toBe(false);

    const unreadable = join(laneDir, 'broken.csv');
    writeFileSync(unreadable, 'Sample Name,Barcode\nS1,"ACGT\n');
    const broken = await demux(unreadable, lane.read1, out);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/\(row 2, column B\).*never closed/);

    for (const args of [
      ['demux', '--input', lane.read1, '--out', out],
      ['demux', '--sheet', sheet, '--input', lane.read1, '--out', out, '--mismatches', '3'],
      ['demux', '--sheet', sheet, '--input', lane.read1, '--out', out, '--barcodes', 'somewhere'],
      ['demux', '--sheet', sheet, '--input', lane.read1, '--out', out, '--frobnicate'],
    ]) {
      const r = await runCliToEnd(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^laneway demux: /);
    }
    // One file as read 1 and, through a link, read 2: once demultiplexed as a pair with itself.
    const link = join(laneDir, 'same_R2.fastq');
    symlinkSync(lane.read1, link);
    const twice = await runCliToEnd(['demux', '--sheet', sheet, '--input', lane.read1, '--input2', link, '--out', out]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^laneway demux: --input2 must be another file than --input/);
    expect(existsSync(out)).toBe(false);
    const missing = await demux(sheet, join(laneDir, 'nope.fastq'), out);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.fastq: no such file/);
  }, 90_000);
});
