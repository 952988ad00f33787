/**
 * Data records: the one way any area (uploads, lanes, executions) turns a file on disk into a
 * stored, owned data record, the way engines find the bytes of a record, and deletion.
 */
import { statSync } from 'node:fs';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { requireFullControl } from '../policy/policy';
import { blobPath, hashFileSync, putBlob, removeBlobIfUnused } from './content-blobs';
import {
  deleteDataRow,
  getDataRow,
  insertDataRow,
  laneHoldingRead,
  sampleHoldingRead,
  type DataRow,
  type NewDataRow,
} from './data.store';

export interface NewDataRecord extends Omit<NewDataRow, 'checksum' | 'size'> {
  /** The file to store; it is moved into the content store. */
  sourceFile: string;
  /** sha256 of the file when the caller already has it (computed otherwise). */
  checksum?: string;
}

/** The data type the service records for a file name (compression is not a data type). */
export function dataTypeFor(filename: string): string {
  const lower = filename.toLowerCase().replace(/\.(gz|bgz|bz2|zst)$/, '');
  if (/\.(fastq|fq)$/.test(lower)) return 'fastq';
  if (/\.(fa|fasta|fna)$/.test(lower)) return 'fasta';
  if (/\.(gff|gff3)$/.test(lower)) return 'gff3';
  const ext = /\.([a-z0-9]+)$/.exec(lower)?.[1];
  return ext ?? 'unknown';
}

/** Moves a file into the content store and creates its data record (checksum computed when absent). */
export function createDataRecord(ctx: ServiceContext, input: NewDataRecord): DataRow {
  const checksum = input.checksum ?? hashFileSync(input.sourceFile);
  const size = statSync(input.sourceFile).size;
  // Store first, then commit: a crash in between leaves an unreferenced file (swept), never a
  // record without bytes.
  putBlob(ctx, input.sourceFile, checksum);
  return insertDataRow(ctx, { ...input, checksum, size });
}

/** Absolute path of a data record's stored bytes (engines read from it; never write). */
export function dataFilePath(ctx: ServiceContext, dataId: number): string {
  const row = getDataRow(ctx, dataId);
  if (!row) throw new Error(`No data record ${dataId}`);
  return blobPath(ctx, row.storage_key);
}

/** Deletes a data record that no sample or lane uses, then its bytes when no record shares them. */
export function deleteData(ctx: ServiceContext, user: AuthUser, id: number): void {
  requireFullControl(ctx.db, 'data', id, user);
  const sample = sampleHoldingRead(ctx, id);
  if (sample !== undefined) {
    throw errors.conflict(`Data file ${id} holds reads of sample ${sample}: delete the sample first`);
  }
  const lane = laneHoldingRead(ctx, id);
  if (lane !== undefined) throw errors.conflict(`Data file ${id} holds the reads of lane ${lane}`);
  const row = getDataRow(ctx, id)!;
  ctx.db.transaction(() => {
    deleteDataRow(ctx, id);
    audit(ctx, user, 'deleted', { kind: 'data', id, name: row.filename }, { checksum: row.checksum });
  })();
  removeBlobIfUnused(ctx, row.storage_key);
}
