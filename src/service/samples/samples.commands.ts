/**
 * Sample use cases, shared by the REST routes and by lanes: create from uploaded reads,
 * update, delete. Reads must be FASTQ data records the caller may edit and that no other
 * sample holds yet; metadata is checked against the vocabularies.
 */
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { dataFilePath } from '../data/data.commands';
import { getDataRow, sampleHoldingRead } from '../data/data.store';
import { errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { addProjectSamples } from '../projects/projects.commands';
import { accessTo, ownerFor, requireAccess, requireFullControl, satisfies } from '../policy/policy';
import { fileNameProblem } from '../../shared/annotation/names';
import { loadVocabularies } from '../vocabularies/vocabularies';
import { checkReadPairing } from './read-pairing';
import { checkMetadata } from './sample-metadata';
import { deleteSampleRows, insertSample, sampleById, updateSampleRow, type SampleRow } from './samples.store';

export interface NewSample {
  name: string;
  read1: number;
  read2?: number | null;
  metadata: unknown;
  /** A project to add the sample to (needs edit permission on it). */
  project?: number | null;
  /** A group to own the sample (the caller must be able to create in it). */
  group_owner?: string | null;
  /** Set by lanes: the lane the sample came from, and its owner as already decided. */
  laneId?: number;
  owner?: { owner_user_id: number | null; owner_group_id: number | null };
}

function checkName(name: string): string {
  const trimmed = name.trim();
  const problem = trimmed ? fileNameProblem(trimmed) : 'is required';
  if (problem) throw errors.validation({ name: `Sample name ${problem}` }, `Invalid sample name: ${problem}`);
  return trimmed;
}

function checkRead(ctx: ServiceContext, user: AuthUser, field: 'read1' | 'read2', id: number, self?: number): void {
  const access = accessTo(ctx.db, 'data', id, user);
  if (access === null) throw errors.validation({ [field]: `data file ${id} does not exist or is not visible to you` });
  if (!satisfies(access, 'edit')) throw errors.validation({ [field]: `you may not edit data file ${id}` });
  const row = getDataRow(ctx, id)!;
  if (row.data_type !== 'fastq') throw errors.validation({ [field]: `data file ${id} is ${row.data_type}, not FASTQ` });
  const holder = sampleHoldingRead(ctx, id);
  if (holder !== undefined && holder !== self) {
    throw errors.validation({ [field]: `data file ${id} already holds reads of sample ${holder}` });
  }
}

/**
 * Creates a sample from uploaded reads, first checking (for paired reads) that the names of
 * read 1 and read 2 pair: the REST route's way in. Lanes create samples from their own
 * demultiplexer's output, which pairs by construction, with createSample directly.
 */
export async function createCheckedSample(ctx: ServiceContext, user: AuthUser, input: NewSample): Promise<SampleRow> {
  const read2 = input.read2 ?? null;
  if (read2 !== null && read2 !== input.read1) {
    // Access first: files the caller may not edit are never opened.
    checkRead(ctx, user, 'read1', input.read1);
    checkRead(ctx, user, 'read2', read2);
    await checkReadPairing(dataFilePath(ctx, input.read1), dataFilePath(ctx, read2));
  }
  return createSample(ctx, user, input);
}

/** Creates a sample from uploaded reads. */
export function createSample(ctx: ServiceContext, user: AuthUser, input: NewSample): SampleRow {
  const name = checkName(input.name);
  const read2 = input.read2 ?? null;
  if (read2 !== null && read2 === input.read1) throw errors.validation({ read2: 'must differ from read1' });
  checkRead(ctx, user, 'read1', input.read1);
  if (read2 !== null) checkRead(ctx, user, 'read2', read2);
  const metadata = checkMetadata(input.metadata ?? {}, loadVocabularies());
  if (input.project != null) requireAccess(ctx.db, 'project', input.project, user, 'edit');
  const owner = input.owner ?? ownerFor(ctx.db, user, input.group_owner);
  const now = new Date(ctx.clock.now()).toISOString();
  const id = ctx.db.transaction(() => {
    const sampleId = insertSample(ctx, {
      name,
      read1_id: input.read1,
      read2_id: read2,
      metadata: JSON.stringify(metadata),
      ...owner,
      lane_id: input.laneId ?? null,
      created: now,
      updated: now,
    });
    if (input.project != null) addProjectSamples(ctx, user, input.project, [sampleId]);
    audit(ctx, user, 'created', { kind: 'sample', id: sampleId, name }, input.laneId ? { lane: input.laneId } : {});
    return sampleId;
  })();
  return sampleById(ctx, id)!;
}

export interface SampleChanges {
  name?: string;
  metadata?: unknown;
}

/** Renames a sample or replaces its metadata (the caller's edit permission is checked). */
export function updateSample(ctx: ServiceContext, user: AuthUser, id: number, changes: SampleChanges): SampleRow {
  requireAccess(ctx.db, 'sample', id, user, 'edit');
  const name = changes.name !== undefined ? checkName(changes.name) : undefined;
  const metadata = changes.metadata !== undefined ? checkMetadata(changes.metadata, loadVocabularies()) : undefined;
  const now = new Date(ctx.clock.now()).toISOString();
  const before = sampleById(ctx, id)!;
  ctx.db.transaction(() => {
    updateSampleRow(ctx, id, name ?? null, metadata ? JSON.stringify(metadata) : null, now);
    if (name !== undefined && name !== before.name) {
      audit(ctx, user, 'updated', { kind: 'sample', id, name }, { name: { from: before.name, to: name } });
    }
  })();
  return sampleById(ctx, id)!;
}

/** Deletes a sample (owner or group admin); its data records stay with their owners. */
export function deleteSample(ctx: ServiceContext, user: AuthUser, id: number): void {
  requireFullControl(ctx.db, 'sample', id, user);
  ctx.db.transaction(() => {
    audit(ctx, user, 'deleted', { kind: 'sample', id, name: sampleById(ctx, id)?.name });
    deleteSampleRows(ctx, id);
  })();
}
