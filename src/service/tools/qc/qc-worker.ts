/**
 * The quality-control pipeline process (src/service/engines/protocol.ts): for every sample of
 * the job one process execution `qc:SAMPLE` that analyses read 1 (and read 2) and writes a JSON
 * result (data type qc_json) and an HTML report (data type html) per read file, titled with the
 * sample and the file's uploaded name, and one fastp-layout JSON per sample (data type
 * fastp_json, `<sample>.fastp.json`) that MultiQC's fastp module reads. A failing sample is
 * reported with an ERROR log and a failed process; the others still run; the exit code is 1
 * when any sample failed. A read file with no reads (a lane's sample that no read matched) is
 * not a failure: its result counts 0 reads with a `no_reads` warning, and the log says so.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emit } from '../../engines/protocol';
import { forEachSample, readJob, runWorker, safeName } from './engine-io';
import { fastpJson } from './qc-fastp-json';
import { renderQcHtml } from './qc-html';
import type { QcResult } from './qc-result';
import { runQc } from './qc-run';

async function main(): Promise<number> {
  const job = readJob(process.argv);
  mkdirSync(job.outDir, { recursive: true });
  return forEachSample(job, 'qc', async (sample, name, progress) => {
    const reads = sample.read2 ? [sample.read1, sample.read2] : [sample.read1];
    const names = [sample.read1_name, sample.read2_name];
    const results: QcResult[] = [];
    for (const [i, path] of reads.entries()) {
      const tag = `${safeName(sample.name)}_R${i + 1}`;
      emit({ type: 'log', process: name, level: 'INFO', message: `quality control of read ${i + 1}` });
      const result = await runQc(path, {
        threads: job.cpus,
        maxReads: job.maxReads,
        sample: sample.name,
        ...(names[i] ? { displayName: names[i] } : {}),
        // Phred+64 archives are refused with the reason unless the run asks to read them so.
        qualityEncoding: job.parameters.quality_encoding === 'phred64' ? 'phred64' : 'auto',
        onProgress: (f) => progress(((i + f) / reads.length) * 100),
      });
      results.push(result);
      writeFileSync(join(job.outDir, `${tag}.qc.json`), `${JSON.stringify(result, null, 1)}\n`);
      writeFileSync(join(job.outDir, `${tag}.qc.html`), renderQcHtml(result));
      emit({ type: 'output', path: `${tag}.qc.json`, data_type: 'qc_json', sample_id: sample.id });
      emit({ type: 'output', path: `${tag}.qc.html`, data_type: 'html', sample_id: sample.id });
      const s = result.summary;
      emit({
        type: 'log',
        process: name,
        level: 'INFO',
        message: `read ${i + 1}: ${s.total_reads} reads, ${s.total_bases} bases, Q30 ${(100 * s.q30_rate).toFixed(2)}%, GC ${(100 * s.gc_content).toFixed(2)}%${result.truncated ? ' (test mode subsample)' : ''}`,
      });
      const flagged = result.flags.filter((f) => f.status !== 'pass');
      if (s.total_reads === 0)
        // Not a failure (FastQC reports 0 sequences too): the run goes on, and the log says it plainly.
        emit({
          type: 'log',
          process: name,
          level: 'WARNING',
          message: `read ${i + 1}: no reads in ${result.file} (an empty file; for a lane's sample, no read matched its barcode)`,
        });
      else if (flagged.length > 0)
        emit({
          type: 'log',
          process: name,
          level: flagged.some((f) => f.status === 'fail') ? 'WARNING' : 'INFO',
          message: `read ${i + 1} flags (FastQC limits): ${flagged.map((f) => `${f.title} ${f.status}`).join(', ')}`,
        });
    }
    const key = safeName(sample.name);
    writeFileSync(
      join(job.outDir, `${key}.fastp.json`),
      `${JSON.stringify(fastpJson(key, sample.name, results), null, 1)}\n`,
    );
    emit({ type: 'output', path: `${key}.fastp.json`, data_type: 'fastp_json', sample_id: sample.id });
  });
}

runWorker('qc', main);
