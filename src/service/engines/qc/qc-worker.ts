/**
 * The quality-control pipeline process (src/service/engines/protocol.ts): for every sample of
 * the job one process execution `qc:SAMPLE` that analyses read 1 (and read 2) and writes a JSON
 * result (data type qc_json) and an HTML report (data type html) per read file. A failing sample
 * is reported with an ERROR log and a failed process; the others still run; the exit code is 1
 * when any sample failed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emit } from '../protocol';
import { forEachSample, readJob, runWorker, safeName } from './engine-io';
import { renderQcHtml } from './qc-html';
import { runQc } from './qc-run';

async function main(): Promise<number> {
  const job = readJob(process.argv);
  mkdirSync(job.outDir, { recursive: true });
  return forEachSample(job, 'qc', async (sample, name, progress) => {
    const reads = sample.read2 ? [sample.read1, sample.read2] : [sample.read1];
    for (const [i, path] of reads.entries()) {
      const tag = `${safeName(sample.name)}_R${i + 1}`;
      emit({ type: 'log', process: name, level: 'INFO', message: `quality control of read ${i + 1}` });
      const counted = await runQc(path, {
        threads: job.cpus,
        maxReads: job.maxReads,
        onProgress: (f) => progress(((i + f) / reads.length) * 100),
      });
      // The input is a file of the service's store, named by its hash: the report names the
      // sample and the read instead, which is what the technician knows it by.
      const result = { ...counted, file: `${sample.name} read ${i + 1}` };
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
    }
  });
}

runWorker('qc', main);
