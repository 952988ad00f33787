/**
 * Debian's FastQC as the reference our QC is held to: run on files, its verdicts read from each
 * report's summary.txt under our flag keys, and the encoding it found from fastqc_data.txt.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** FastQC's module titles (as summary.txt names them) and our flag keys. */
export const FASTQC_MODULES: Record<string, string> = {
  'Per base sequence quality': 'per_base_quality',
  'Per sequence quality scores': 'per_sequence_quality',
  'Per base sequence content': 'per_base_sequence_content',
  'Per sequence GC content': 'per_sequence_gc_content',
  'Per base N content': 'per_base_n_content',
  'Sequence Length Distribution': 'sequence_length_distribution',
  'Sequence Duplication Levels': 'sequence_duplication_levels',
  'Overrepresented sequences': 'overrepresented_sequences',
  'Adapter Content': 'adapter_content',
};

export interface FastqcReport {
  /** FastQC's name for the quality encoding ("Sanger / Illumina 1.9", "Illumina 1.5", ...). */
  encoding: string;
  /** pass/warn/fail by our flag key, for the modules we flag. */
  verdicts: Record<string, string>;
}

/** Runs fastqc on `files` (names ending in .fq) into `outDir`; each file's report by its base name. */
export function fastqcReports(files: string[], outDir: string): Map<string, FastqcReport> {
  execFileSync('fastqc', ['-q', '-t', String(Math.min(files.length, 2)), '--extract', '-o', outDir, ...files], {
    stdio: 'ignore',
  });
  const reports = new Map<string, FastqcReport>();
  for (const file of files) {
    const name = basename(file).replace(/\.fq$/, '');
    const report = join(outDir, `${name}_fastqc`);
    const verdicts: Record<string, string> = {};
    for (const line of readFileSync(join(report, 'summary.txt'), 'utf8').trim().split('\n')) {
      const [status, title] = line.split('\t');
      const key = FASTQC_MODULES[title!];
      if (key) verdicts[key] = status!.toLowerCase();
    }
    const data = readFileSync(join(report, 'fastqc_data.txt'), 'utf8');
    reports.set(name, { encoding: /^Encoding\t(.*)$/m.exec(data)![1]!, verdicts });
  }
  return reports;
}

/** FastQC's report on one file. */
export function fastqcReport(file: string, outDir: string): FastqcReport {
  return fastqcReports([file], outDir).values().next().value!;
}
