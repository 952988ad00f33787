/**
 * The trimming pipeline process (src/service/engines/protocol.ts): one process execution
 * `trim:SAMPLE` per sample, writing trimmed reads (data type fastq, R1 before R2, so that a
 * chained pipeline receives them as the sample's reads) and a trimming report (trim_report).
 * A failing sample is reported with an ERROR log and a failed process; the exit code is 1 when
 * any sample failed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emit } from '../../engines/protocol';
import { forEachSample, readJob, runWorker, safeName } from '../qc/engine-io';
import { trimParameters } from './trim-parameters';
import { sampleAdapters } from './sample-adapters';
import { runTrim } from './trim-run';

async function main(): Promise<number> {
  const job = readJob(process.argv);
  const params = trimParameters(job.parameters);
  mkdirSync(job.outDir, { recursive: true });
  const ext = params.compress ? 'fastq.gz' : 'fastq';
  return forEachSample(job, 'trim', async (sample, name, progress) => {
    const tag = safeName(sample.name);
    const { adapter1, adapter2 } = await sampleAdapters(params, sample);
    for (const [read, a] of [['read 1', adapter1], ...(sample.read2 ? [['read 2', adapter2] as const] : [])] as const) {
      const what = a
        ? `${a.name} ${a.sequence}${a.source === 'auto' ? ' (detected)' : a.source === 'sample-sheet' ? ' (from the sample sheet)' : ''}`
        : 'none (quality trimming only)';
      emit({ type: 'log', process: name, level: 'INFO', message: `${read} adapter: ${what}` });
    }
    const out1 = `${tag}_R1.trimmed.${ext}`;
    const out2 = sample.read2 ? `${tag}_R2.trimmed.${ext}` : undefined;
    const report = await runTrim({
      read1: sample.read1,
      read2: sample.read2,
      out1: join(job.outDir, out1),
      out2: out2 && join(job.outDir, out2),
      adapter1,
      adapter2,
      qualityCutoff: params.qualityCutoff,
      minLength: params.minLength,
      errorRate: params.errorRate,
      minOverlap: params.minOverlap,
      maxReads: job.maxReads,
      onProgress: (f) => progress(f * 100),
    });
    writeFileSync(join(job.outDir, `${tag}.trim.json`), `${JSON.stringify(report, null, 1)}\n`);
    emit({ type: 'output', path: out1, data_type: 'fastq', sample_id: sample.id });
    if (out2) emit({ type: 'output', path: out2, data_type: 'fastq', sample_id: sample.id });
    emit({ type: 'output', path: `${tag}.trim.json`, data_type: 'trim_report', sample_id: sample.id });
    const r = report.reads;
    emit({
      type: 'log',
      process: name,
      level: 'INFO',
      message: `${r.input} ${sample.read2 ? 'pairs' : 'reads'}: ${r.written} written, ${r.too_short} too short, adapters in ${r.with_adapter_read1}${sample.read2 ? ` + ${r.with_adapter_read2}` : ''}${report.truncated ? ' (test mode subsample)' : ''}`,
    });
  });
}

runWorker('trim', main);
