/** `laneway qc` end to end through the real CLI. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { QcResult } from '../../../src/service/tools/qc/qc-result';
import { runCliToEnd } from '../../helpers/cli';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-qc-cli-');
afterAll(() => dir.remove());

describe('laneway qc', () => {
  it('prints a summary and writes the JSON result and the HTML report', async () => {
    const input = join(dir.path, 'in.fastq');
    writeFileSync(input, fastqText({ reads: 1000, length: [50, 150], nRate: 0.01, seed: 21 }));
    const json = join(dir.path, 'out.json');
    const html = join(dir.path, 'out.html');
    const { code, stdout, stderr } = await runCliToEnd(['qc', input, '--json', json, '--html', html]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/reads\s+1000/);
    const result = JSON.parse(readFileSync(json, 'utf8')) as QcResult;
    expect(result.summary.total_reads).toBe(1000);
    expect(stdout).toContain(`bases     ${result.summary.total_bases}`);
    // Mixed lengths (50-150) warn at FastQC's limits, in the summary as in the JSON.
    expect(result.flags.find((f) => f.module === 'sequence_length_distribution')!.status).toBe('warn');
    expect(stdout).toMatch(/flags {5}.*warn: [^\n]*Sequence length distribution[^\n]*\(FastQC limits\)/);
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('writes JSON to standard output with --json -', async () => {
    const input = join(dir.path, 'small.fq');
    writeFileSync(input, fastqText({ reads: 20, length: 30, seed: 22 }));
    const { code, stdout, stderr } = await runCliToEnd(['qc', input, '--json', '-']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as QcResult).summary.total_bases).toBe(600);
    expect(stderr).toMatch(/reads\s+20/);
  });

  it('answers usage errors with exit code 2', async () => {
    const runs = await Promise.all([
      runCliToEnd(['qc']),
      runCliToEnd(['qc', 'a.fq', 'b.fq']),
      runCliToEnd(['qc', 'a.fq', '--bogus']),
      runCliToEnd(['qc', 'a.fq', '--threads', 'zero']),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    expect(runs[3]!.stderr).toMatch(/--threads must be a positive integer/);
  });

  it('answers unreadable or malformed input with exit code 1 and a clear message', async () => {
    const missing = await runCliToEnd(['qc', join(dir.path, 'missing.fq')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/laneway qc: .*missing\.fq: no such file/);
    const bad = join(dir.path, 'bad.fq');
    writeFileSync(bad, '@r1\nACGT\n+\nII\n');
    const malformed = await runCliToEnd(['qc', bad]);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(
      /bad\.fq: malformed FASTQ at line 4: .*quality length 2 differs from sequence length 4/,
    );
  });
});
