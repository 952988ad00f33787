/**
 * Turns a confirmed (possibly edited) proposal, or a direct enqueue request, into queue jobs:
 * a group per sample or lane and one job per file, handed to the queue as one batch (the
 * queue writes it in one transaction, so a crash never leaves a group without its jobs).
 */
import type { ConfirmParams, EnqueueResult, Priority } from '../../../shared/desktop-api/contract';
import { fileNameProblem } from '../../../shared/annotation/names';
import { missingMetadataMessage } from '../../../shared/desktop-api/sample-metadata';
import { classifyFile, isFastqName } from '../../../shared/fastq-naming';
import { presentJob, type JobRow } from '../uploads/job-store';
import type { QueuedFile, QueuedGroup, UploadQueue } from '../uploads/upload-queue';
import { barcodeBatches } from './propose';
import { checkedPath, isDirectory } from '../files/scan-paths';
import type { LaneParams } from '../uploads/group-finisher';
import { keepLaneSheet } from './lane-sheet-file';

interface FileSpec {
  sources: string[];
  filename: string;
}

/** A read given as a file, or as a Nanopore barcode folder whose batches are joined. */
async function fileSpec(path: string, name: string): Promise<FileSpec> {
  const real = await checkedPath(path);
  if (!(await isDirectory(real))) {
    if (!isFastqName(real)) throw new Error(`Not a FASTQ file: ${path}`);
    return { sources: [real], filename: real.split(/[\\/]/).pop()! };
  }
  const batches = await barcodeBatches(real);
  // Joined bytes must be one format: gzip members concatenate, plain text concatenates.
  const gz = batches.filter((b) => b.toLowerCase().endsWith('.gz'));
  const sources = gz.length ? gz : batches;
  if (!sources.length) throw new Error(`No FASTQ files in ${path}`);
  return { sources, filename: `${name}.fastq${gz.length ? '.gz' : ''}` };
}

/** A file uploaded as plain data: reads, or a reference (FASTA, GTF, GFF3, BED) the service checks by content. */
async function dataSpec(path: string): Promise<FileSpec> {
  // Reads go straight to fileSpec: no second resolve per file (2,000 small files are timed).
  if (classifyFile(path.split(/[\\/]/).pop()!) !== 'reference') return fileSpec(path, path);
  const real = await checkedPath(path);
  if (await isDirectory(real)) throw new Error(`Not a file: ${path}`);
  return { sources: [real], filename: real.split(/[\\/]/).pop()! };
}

/** Several files joined in the given order (a sample's lanes): all gzip or all plain. */
async function partsSpec(paths: readonly string[], name: string): Promise<FileSpec> {
  const sources = await Promise.all(
    paths.map(async (p) => {
      const real = await checkedPath(p);
      if (!isFastqName(real)) throw new Error(`Not a FASTQ file: ${p}`);
      return real;
    }),
  );
  const gz = sources.filter((s) => s.toLowerCase().endsWith('.gz')).length;
  if (gz !== 0 && gz !== sources.length)
    throw new Error(`${name}: some lane files are gzip-compressed and some are not; they cannot be joined`);
  return { sources, filename: `${name}.fastq${gz ? '.gz' : ''}` };
}

function readSpec(path: string, parts: readonly string[] | undefined, name: string): Promise<FileSpec> {
  return parts && parts.length > 1 ? partsSpec(parts, name) : fileSpec(path, name);
}

/**
 * Refuses one file given twice within a sample or lane (read 2 typed as read 1's path, a sheet
 * or a script naming one file for both): queued, both jobs would end with one record and the
 * service would refuse the group only after the upload. Paths are compared resolved (links
 * followed); a copy under another name is found after hashing (group-finisher.ts).
 */
function sameFileProblem(what: string, parts: Array<[string, FileSpec | null]>): string | null {
  const seen = new Map<string, string>();
  for (const [label, spec] of parts) {
    for (const source of spec?.sources ?? []) {
      const first = seen.get(source);
      if (first === label) return `${what}: ${label} names ${source} twice`;
      if (first !== undefined) return `${what}: ${label} is the same file as ${first} (${source})`;
      seen.set(source, label);
    }
  }
  return null;
}

export interface SampleRequest {
  name: string;
  read1: string;
  read2?: string | null;
  read1_parts?: string[];
  read2_parts?: string[];
  metadata?: Record<string, unknown>;
  project?: number;
}

export interface LaneRequest {
  name: string;
  file: string;
  read2?: string | null;
  /** Index reads as files (I1, I2). */
  index1?: string | null;
  index2?: string | null;
  /** The sheet as a path, or (from the Lane screen) as the .xlsx it built, base64. */
  annotation?: string;
  annotation_xlsx?: string;
  layout?: string;
  mismatches?: string;
  barcode_read?: 1 | 2;
  ignore_warnings?: boolean;
}

function result(queue: UploadQueue, { rows, groupIds }: { rows: JobRow[]; groupIds: number[] }): EnqueueResult {
  return {
    jobs: rows.map((r) => presentJob(r)),
    groups: groupIds.map((id) => queue.group(id)!),
  };
}

/** Queues samples (each a group created once its reads are in). */
export async function enqueueSamples(
  queue: UploadQueue,
  samples: SampleRequest[],
  priority: Priority = 'normal',
): Promise<EnqueueResult> {
  const missing = missingMetadataMessage(samples);
  if (missing) throw new Error(missing);
  // The service's own name rule, checked before any byte goes up (the upload would be
  // refused for the file name, or the sample after its reads were sent).
  for (const s of samples) {
    const problem = fileNameProblem(s.name.trim());
    if (problem) throw new Error(`Sample name "${s.name}" ${problem}`);
  }
  const specs = await Promise.all(
    samples.map(async (s) => ({
      s,
      r1: await readSpec(s.read1, s.read1_parts, `${s.name}_R1`),
      r2: s.read2 ? await readSpec(s.read2, s.read2_parts, `${s.name}_R2`) : null,
    })),
  );
  for (const { s, r1, r2 } of specs) {
    const same = sameFileProblem(`Sample "${s.name}"`, [
      ['read 1', r1],
      ['read 2', r2],
    ]);
    if (same) throw new Error(same);
  }
  const groups: QueuedGroup[] = specs.map(({ s, r1, r2 }) => {
    const params: Record<string, unknown> = { metadata: s.metadata ?? {} };
    if (s.project !== undefined) params.project = s.project;
    const files: QueuedFile[] = [{ ...r1, role: 'read1' }];
    if (r2) files.push({ ...r2, role: 'read2' });
    return { kind: 'sample', name: s.name, params, files };
  });
  return result(queue, queue.enqueueBatch({ groups }, priority));
}

/** Queues a lane: its multiplexed FASTQ (read 2, index reads) first, then the lane with its sheet. */
export async function enqueueLane(
  queue: UploadQueue,
  lane: LaneRequest,
  priority: Priority = 'normal',
): Promise<EnqueueResult> {
  if (!lane.annotation === !lane.annotation_xlsx) throw new Error('A lane needs its sheet: a path or the .xlsx');
  const file = await fileSpec(lane.file, lane.name);
  const read2 = lane.read2 ? await fileSpec(lane.read2, `${lane.name}_R2`) : null;
  const index1 = lane.index1 ? await fileSpec(lane.index1, `${lane.name}_I1`) : null;
  const index2 = lane.index2 ? await fileSpec(lane.index2, `${lane.name}_I2`) : null;
  if (index2 && !index1) throw new Error('Index read 2 needs index read 1');
  const same = sameFileProblem(`Lane "${lane.name}"`, [
    ['read 1', file],
    ['read 2', read2],
    ['index 1', index1],
    ['index 2', index2],
  ]);
  if (same) throw new Error(same);
  const annotation = lane.annotation
    ? await checkedPath(lane.annotation)
    : keepLaneSheet(queue.store.db, lane.annotation_xlsx!);
  const files: QueuedFile[] = [{ ...file, role: 'multiplexed' }];
  if (read2) files.push({ ...read2, role: 'multiplexed-read2' });
  if (index1) files.push({ ...index1, role: 'multiplexed-index1' });
  if (index2) files.push({ ...index2, role: 'multiplexed-index2' });
  const params: LaneParams & Record<string, unknown> = { annotation, ignore_warnings: lane.ignore_warnings ?? false };
  if (lane.layout?.trim()) params.layout = lane.layout.trim();
  if (lane.mismatches?.trim()) params.mismatches = lane.mismatches.trim();
  if (lane.barcode_read === 2) params.barcode_read = 2;
  return result(queue, queue.enqueueBatch({ groups: [{ kind: 'lane', name: lane.name, params, files }] }, priority));
}

/** Queues plain data files. */
export async function enqueueData(
  queue: UploadQueue,
  paths: string[],
  priority: Priority = 'normal',
): Promise<EnqueueResult> {
  const specs = await Promise.all(paths.map((p) => dataSpec(p)));
  return result(queue, queue.enqueueBatch({ files: specs.map((f) => ({ ...f, role: 'data' })) }, priority));
}

/** Enqueues a confirmed proposal. */
export async function confirmProposal(queue: UploadQueue, params: ConfirmParams): Promise<EnqueueResult> {
  const priority = params.priority ?? 'normal';
  const parts: EnqueueResult[] = [];
  if (params.kind === 'lane') {
    if (!params.lane) throw new Error('A lane proposal needs its lane');
    parts.push(await enqueueLane(queue, params.lane, priority));
  } else if (params.kind === 'samples') {
    // Rows the user left out, and samples whose reads the service already holds, are not sent.
    const chosen = params.samples.filter(
      (s) => !s.excluded && !(s.existing?.reads_on_service && s.existing.sample_id !== null),
    );
    if (chosen.length)
      parts.push(
        await enqueueSamples(
          queue,
          chosen.map((s) => ({
            name: s.name,
            read1: s.read1,
            read2: s.read2,
            read1_parts: s.read1_parts,
            read2_parts: s.read2_parts,
            metadata: s.metadata,
          })),
          priority,
        ),
      );
  }
  if (params.loose.length) parts.push(await enqueueData(queue, params.loose, priority));
  return { jobs: parts.flatMap((p) => p.jobs), groups: parts.flatMap((p) => p.groups) };
}
