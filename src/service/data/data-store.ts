/**
 * Data records: the one way any area (uploads, lanes, executions) turns a file on disk into a
 * stored, owned data record, and the way engines find the bytes of a record.
 */
import { statSync } from 'node:fs';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../identity/authenticate';
import { accessFields } from '../policy/policy';
import { blobPath, hashFileSync, putBlob } from './content-store';

export interface Owner {
  owner_user_id: number | null;
  owner_group_id: number | null;
}

export interface DataRecord extends Owner {
  id: number;
  filename: string;
  size: number;
  data_type: string;
  checksum: string;
  storage_key: string;
  created: string;
  /** report: built by the service on request (a MultiQC report over a project or a lane). */
  source: 'upload' | 'execution' | 'lane' | 'report';
  execution_id: number | null;
  path: string | null;
  sample_id: number | null;
}

export interface NewDataRecord {
  /** The file to store; it is moved into the content store. */
  sourceFile: string;
  filename: string;
  dataType: string;
  owner: Owner;
  source: DataRecord['source'];
  executionId?: number;
  path?: string;
  sampleId?: number;
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

/** Inserts a record for bytes already in the store (no file moves); used inside transactions. */
export function insertDataRow(
  ctx: ServiceContext,
  input: Omit<NewDataRecord, 'sourceFile' | 'checksum'> & { checksum: string; size: number },
): DataRecord {
  const created = new Date(ctx.clock.now()).toISOString();
  const info = ctx.db
    .prepare(
      `INSERT INTO data_files (filename, size, data_type, checksum, storage_key, owner_user_id, owner_group_id,
         created, source, execution_id, path, sample_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      input.filename,
      input.size,
      input.dataType,
      input.checksum,
      input.checksum,
      input.owner.owner_user_id,
      input.owner.owner_group_id,
      created,
      input.source,
      input.executionId ?? null,
      input.path ?? null,
      input.sampleId ?? null,
    );
  return getDataRow(ctx, Number(info.lastInsertRowid))!;
}

/** Moves a file into the content store and creates its data record (checksum computed when absent). */
export function createDataRecord(ctx: ServiceContext, input: NewDataRecord): DataRecord {
  const checksum = input.checksum ?? hashFileSync(input.sourceFile);
  const size = statSync(input.sourceFile).size;
  // Store first, then commit: a crash in between leaves an unreferenced file (swept), never a
  // record without bytes.
  putBlob(ctx, input.sourceFile, checksum);
  return insertDataRow(ctx, { ...input, checksum, size });
}

/** One data record by id, or undefined. */
export function getDataRow(ctx: ServiceContext, id: number): DataRecord | undefined {
  return ctx.db.prepare('SELECT * FROM data_files WHERE id = ?').get(id) as DataRecord | undefined;
}

/** Absolute path of a data record's stored bytes (engines read from it; never write). */
export function dataFilePath(ctx: ServiceContext, dataId: number): string {
  const row = getDataRow(ctx, dataId);
  if (!row) throw new Error(`No data record ${dataId}`);
  return blobPath(ctx, row.storage_key);
}

/** The JSON body of a data record as the caller sees it. */
export function presentData(ctx: ServiceContext, row: DataRecord, user: AuthUser) {
  return {
    id: row.id,
    filename: row.filename,
    size: row.size,
    data_type: row.data_type,
    checksum: row.checksum,
    created: row.created,
    source: row.source,
    path: row.path,
    execution_id: row.execution_id,
    sample_id: row.sample_id,
    ...accessFields(ctx.db, 'data', row.id, user),
  };
}

/** The response schema of a data record (OpenAPI and serialisation). */
export const dataRecordSchema = {
  type: 'object',
  required: ['id', 'filename', 'size', 'data_type', 'checksum', 'created'],
  properties: {
    id: { type: 'integer' },
    filename: { type: 'string' },
    size: { type: 'integer' },
    data_type: { type: 'string' },
    checksum: { type: 'string' },
    created: { type: 'string' },
    source: { type: 'string' },
    path: { type: ['string', 'null'] },
    execution_id: { type: ['integer', 'null'] },
    sample_id: { type: ['integer', 'null'] },
    owner: { type: ['string', 'null'] },
    group_owner: { type: ['string', 'null'] },
    can_edit: { type: 'boolean' },
    can_share: { type: 'boolean' },
  },
} as const;
