/**
 * An execution's inputs: its samples with the paths of their reads, or, for a chained run,
 * the upstream execution's outputs in place of the samples' original reads.
 */
import type { ServiceContext } from '../context';
import { dataFilePath } from '../data/data.commands';
import { getDataRow } from '../data/data.store';
import type { EngineSample } from '../engines/engine';
import { kindTableExists } from '../policy/resource-kinds';
import { sampleById } from '../samples/samples.store';
import { executionSampleIds, listOutputs, type ExecutionRow } from './executions.store';

export interface SampleRow {
  id: number;
  name: string;
  read1_id: number | null;
  read2_id: number | null;
  metadata: string | null;
}

/** One sample row, or undefined (also while the samples area has no table yet). */
export function loadSample(ctx: ServiceContext, id: number): SampleRow | undefined {
  if (!kindTableExists(ctx.db, 'sample')) return undefined;
  return sampleById(ctx, id);
}

/** A sample's metadata object (never throws on a malformed column). */
export function sampleMetadata(row: SampleRow): Record<string, unknown> {
  try {
    const v = JSON.parse(row.metadata ?? '{}') as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The data type of a data record, or null. */
export function dataTypeOfRecord(ctx: ServiceContext, id: number | null): string | null {
  if (id === null) return null;
  return getDataRow(ctx, id)?.data_type ?? null;
}

/** FASTQ outputs of an execution, grouped by the sample they belong to (R1 before R2 by path). */
export function fastqOutputsBySample(ctx: ServiceContext, executionId: number): Map<number, number[]> {
  const bySample = new Map<number, number[]>();
  const outputs = listOutputs(ctx.db, executionId)
    .filter((o) => o.data_type === 'fastq' && o.sample_id !== null)
    .sort((a, b) => (a.path ?? a.filename).localeCompare(b.path ?? b.filename));
  for (const o of outputs) {
    const list = bySample.get(o.sample_id!) ?? [];
    list.push(o.id);
    bySample.set(o.sample_id!, list);
  }
  return bySample;
}

/** BAM outputs of an execution by sample (Read Alignment's, for Variant Calling chained after it). */
export function bamOutputBySample(ctx: ServiceContext, executionId: number): Map<number, number> {
  const bySample = new Map<number, number>();
  for (const o of listOutputs(ctx.db, executionId)) {
    if (o.data_type === 'bam' && o.sample_id !== null && !bySample.has(o.sample_id)) bySample.set(o.sample_id, o.id);
  }
  return bySample;
}

/** The samples an execution runs on, with the absolute paths of the reads to use. */
export function jobSamples(ctx: ServiceContext, execution: ExecutionRow): EngineSample[] {
  const chained =
    execution.upstream_execution_id !== null ? fastqOutputsBySample(ctx, execution.upstream_execution_id) : null;
  const bams =
    execution.upstream_execution_id !== null ? bamOutputBySample(ctx, execution.upstream_execution_id) : null;
  const out: EngineSample[] = [];
  for (const id of executionSampleIds(ctx.db, execution.id)) {
    const row = loadSample(ctx, id);
    if (!row) throw new Error(`Sample ${id} no longer exists`);
    const bam = chained?.get(id) ? undefined : bams?.get(id);
    const reads = chained?.get(id) ?? [row.read1_id, row.read2_id].filter((r): r is number => r !== null);
    if (reads.length === 0) throw new Error(`Sample ${row.name} has no reads`);
    out.push({
      id,
      name: row.name,
      read1: dataFilePath(ctx, reads[0]!),
      read1_name: getDataRow(ctx, reads[0]!)!.filename,
      ...(reads[1] !== undefined
        ? { read2: dataFilePath(ctx, reads[1]), read2_name: getDataRow(ctx, reads[1])!.filename }
        : {}),
      ...(bam !== undefined ? { bam: dataFilePath(ctx, bam) } : {}),
      metadata: sampleMetadata(row),
    });
  }
  return out;
}
