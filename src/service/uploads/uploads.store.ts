/** The uploads and upload_chunks tables: what has arrived of each chunked upload. */
import type { Statement } from 'better-sqlite3';
import type { ServiceContext } from '../context';

/**
 * Statements prepared once per database (issue 21): every small file runs these a dozen times,
 * and preparing them anew was a tenth of the service's time per file. None of them changes a
 * statement's mode (pluck, raw), so one prepared statement serves every caller.
 */
const prepared = new WeakMap<ServiceContext['db'], Map<string, Statement>>();
function sql(ctx: ServiceContext, text: string): Statement {
  let cache = prepared.get(ctx.db);
  if (!cache) prepared.set(ctx.db, (cache = new Map()));
  let st = cache.get(text);
  if (!st) cache.set(text, (st = ctx.db.prepare(text)));
  return st;
}

export interface UploadRow {
  id: number;
  user_id: number;
  file_id: string;
  filename: string;
  total_chunks: number;
  total_size: number | null;
  checksum: string | null;
  chunk_size: number | null;
  data_id: number | null;
  complete: number;
  created: string;
  updated: string;
}

export interface ChunkRow {
  upload_id: number;
  idx: number;
  size: number;
  sha256: string | null;
  spool: string | null;
}

/** The caller's upload with this client-chosen id. */
export function findUpload(ctx: ServiceContext, userId: number, fileId: string): UploadRow | undefined {
  return sql(ctx, 'SELECT * FROM uploads WHERE user_id = ? AND file_id = ?').get(userId, fileId) as
    UploadRow | undefined;
}

/** An upload by row id. */
export function uploadById(ctx: ServiceContext, id: number): UploadRow | undefined {
  return sql(ctx, 'SELECT * FROM uploads WHERE id = ?').get(id) as UploadRow | undefined;
}

/** Creates an upload row; returns the existing one when a concurrent first chunk won the race. */
export function insertUpload(
  ctx: ServiceContext,
  u: Pick<UploadRow, 'user_id' | 'file_id' | 'filename' | 'total_chunks' | 'total_size' | 'checksum'>,
): UploadRow {
  const now = new Date(ctx.clock.now()).toISOString();
  sql(
    ctx,
    `INSERT INTO uploads (user_id, file_id, filename, total_chunks, total_size, checksum, created, updated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, file_id) DO NOTHING`,
  ).run(u.user_id, u.file_id, u.filename, u.total_chunks, u.total_size, u.checksum, now, now);
  return findUpload(ctx, u.user_id, u.file_id)!;
}

/**
 * Writes the row of an upload that arrived whole and is complete already (single-chunk.ts: its
 * only chunk never had a row); returns its id.
 */
export function insertCompletedUpload(
  ctx: ServiceContext,
  u: Pick<
    UploadRow,
    | 'user_id'
    | 'file_id'
    | 'filename'
    | 'total_chunks'
    | 'total_size'
    | 'checksum'
    | 'chunk_size'
    | 'data_id'
    | 'created'
  >,
): number {
  const info = sql(
    ctx,
    `INSERT INTO uploads (user_id, file_id, filename, total_chunks, total_size, checksum, chunk_size, data_id,
         complete, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
  ).run(
    u.user_id,
    u.file_id,
    u.filename,
    u.total_chunks,
    u.total_size,
    u.checksum,
    u.chunk_size,
    u.data_id,
    u.created,
    u.created,
  );
  return Number(info.lastInsertRowid);
}

/** Fills in facts a later chunk brought (total size, checksum, chunk size). */
export function updateUploadFacts(
  ctx: ServiceContext,
  id: number,
  facts: Partial<Pick<UploadRow, 'total_size' | 'checksum' | 'chunk_size'>>,
): void {
  const now = new Date(ctx.clock.now()).toISOString();
  sql(
    ctx,
    `UPDATE uploads SET total_size = COALESCE(total_size, ?), checksum = COALESCE(checksum, ?),
         chunk_size = COALESCE(chunk_size, ?), updated = ? WHERE id = ?`,
  ).run(facts.total_size ?? null, facts.checksum ?? null, facts.chunk_size ?? null, now, id);
}

/** All recorded chunks of an upload, by index. */
export function chunksOf(ctx: ServiceContext, uploadId: number): ChunkRow[] {
  return sql(ctx, 'SELECT * FROM upload_chunks WHERE upload_id = ? ORDER BY idx').all(uploadId) as ChunkRow[];
}

/** One recorded chunk. */
export function chunkOf(ctx: ServiceContext, uploadId: number, idx: number): ChunkRow | undefined {
  return sql(ctx, 'SELECT * FROM upload_chunks WHERE upload_id = ? AND idx = ?').get(uploadId, idx) as
    ChunkRow | undefined;
}

/** Records an acknowledged chunk (the commit point of a chunk). */
export function recordChunk(ctx: ServiceContext, c: ChunkRow): void {
  const now = new Date(ctx.clock.now()).toISOString();
  ctx.db.transaction(() => {
    sql(ctx, 'INSERT INTO upload_chunks (upload_id, idx, size, sha256, spool) VALUES (?, ?, ?, ?, ?)').run(
      c.upload_id,
      c.idx,
      c.size,
      c.sha256,
      c.spool,
    );
    sql(ctx, 'UPDATE uploads SET updated = ? WHERE id = ?').run(now, c.upload_id);
  })();
}

/** Marks a spooled chunk as placed into the upload's data file. */
export function markPlaced(ctx: ServiceContext, uploadId: number, idx: number): void {
  sql(ctx, 'UPDATE upload_chunks SET spool = NULL WHERE upload_id = ? AND idx = ?').run(uploadId, idx);
}

/** How many chunks have arrived. */
export function receivedCount(ctx: ServiceContext, uploadId: number): number {
  return (sql(ctx, 'SELECT count(*) AS n FROM upload_chunks WHERE upload_id = ?').get(uploadId) as { n: number }).n;
}

/** Bytes of the chunks that have arrived. */
export function receivedBytes(ctx: ServiceContext, uploadId: number): number {
  return (
    sql(ctx, 'SELECT COALESCE(SUM(size), 0) AS n FROM upload_chunks WHERE upload_id = ?').get(uploadId) as {
      n: number;
    }
  ).n;
}

/** Marks the upload complete with its data record, dropping the chunk bookkeeping. */
export function completeUpload(ctx: ServiceContext, uploadId: number, dataId: number): void {
  const now = new Date(ctx.clock.now()).toISOString();
  sql(ctx, 'UPDATE uploads SET complete = 1, data_id = ?, updated = ? WHERE id = ?').run(dataId, now, uploadId);
  sql(ctx, 'DELETE FROM upload_chunks WHERE upload_id = ?').run(uploadId);
}

/** Forgets every chunk of an upload (after a checksum mismatch the client starts over). */
export function resetUpload(ctx: ServiceContext, uploadId: number): void {
  ctx.db.transaction(() => {
    sql(ctx, 'DELETE FROM upload_chunks WHERE upload_id = ?').run(uploadId);
    sql(ctx, 'UPDATE uploads SET chunk_size = NULL WHERE id = ?').run(uploadId);
  })();
}

/** Records the hash of a chunk that was stored without one (computed when a re-send is compared). */
export function setChunkHash(ctx: ServiceContext, uploadId: number, idx: number, sha256: string): void {
  sql(ctx, 'UPDATE upload_chunks SET sha256 = ? WHERE upload_id = ? AND idx = ?').run(sha256, uploadId, idx);
}

/** Forgets one recorded chunk (a spooled chunk whose size turned out wrong). */
export function deleteChunk(ctx: ServiceContext, uploadId: number, idx: number): void {
  sql(ctx, 'DELETE FROM upload_chunks WHERE upload_id = ? AND idx = ?').run(uploadId, idx);
}

/** Deletes an upload row. */
export function deleteUpload(ctx: ServiceContext, uploadId: number): void {
  sql(ctx, 'DELETE FROM uploads WHERE id = ?').run(uploadId);
}

/** Every upload row. */
export function allUploads(ctx: ServiceContext): UploadRow[] {
  return sql(ctx, 'SELECT * FROM uploads').all() as UploadRow[];
}

/** Uploads not touched since `cutoff` (an ISO time). */
export function uploadsIdleSince(ctx: ServiceContext, cutoff: string): Array<{ id: number; complete: number }> {
  return sql(ctx, 'SELECT id, complete FROM uploads WHERE updated < ?').all(cutoff) as Array<{
    id: number;
    complete: number;
  }>;
}
