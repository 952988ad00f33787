/**
 * POST /upload/annotation (FLOW-WIRE.md §4.2): the lane sheet arrives in offset chunks, is read
 * and checked on its last chunk by the same sheet reader and lane rules as /api's lanes, and
 * answers Flow's verdicts: 400 `{"validation": [...]}` for errors, 400 `{"warnings": [...]}`
 * unless `ignore_warnings` (flowbio then sends the whole sheet again with it), else its id.
 * An accepted sheet waits here for its reads (flow-multiplexed.ts). Sheets are small: a chunk
 * is held in memory while appended; pending sheets live in memory (a restart forgets them,
 * and flowbio's upload of the reads then fails with a clear 400).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { readSheetBounded } from '../demux/bounded-sheet-reader';
import { TableReadError } from '../../shared/sheets/table-limits';
import type { ServiceContext, StoreContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { MAX_SHEET_BYTES } from '../lanes/lane-form';
import { annotationVocabulary, loadVocabularies } from '../vocabularies/vocabularies';
import { type FlowFields, flag, one } from './flow-chunks';
import { badRequest, FlowError } from './flow-errors';

export interface PendingSheet {
  id: string;
  userId: number;
  path: string;
  filename: string;
  size: number;
  accepted: boolean;
  /** The reads files the sheet's File columns name (empty when it has none). */
  files: string[];
  created: number;
  used: boolean;
}

/** Sheets not used within a day are forgotten. */
const PENDING_MS = 24 * 3600 * 1000;
/** The pending sheets of a service (a part the root builds); their files go at shutdown. */
export function createPendingSheets(ctx: StoreContext): Map<string, PendingSheet> {
  const sheets = new Map<string, PendingSheet>();
  ctx.onClose(() => {
    for (const s of sheets.values()) rmSync(s.path, { force: true });
  });
  return sheets;
}

export function pendingSheets(ctx: ServiceContext): Map<string, PendingSheet> {
  const map = ctx.parts.flow.pendingSheets;
  const now = ctx.clock.now();
  for (const [id, s] of map) {
    if (now - s.created > PENDING_MS) {
      rmSync(s.path, { force: true });
      map.delete(id);
    }
  }
  return map;
}

/** Forgets a sheet and its file. */
export function dropSheet(ctx: ServiceContext, sheet: PendingSheet): void {
  rmSync(sheet.path, { force: true });
  pendingSheets(ctx).delete(sheet.id);
}

async function readForm(request: FastifyRequest): Promise<{ fields: FlowFields; blob: Buffer | null }> {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    throw badRequest('Send chunks as multipart/form-data');
  }
  const fields: FlowFields = {};
  let blob: Buffer | null = null;
  let problem: FlowError | null = null;
  await new Promise<void>((resolve) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: request.headers, limits: { fileSize: MAX_SHEET_BYTES, files: 1, fields: 50 } });
    } catch {
      problem = badRequest('Send chunks as multipart/form-data');
      if (request.raw.readableEnded) resolve();
      else request.raw.once('end', resolve).resume();
      return;
    }
    bb.on('field', (name, value) => (fields[name] ??= []).push(value));
    bb.on('file', (name, stream) => {
      const parts: Buffer[] = [];
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('end', () => {
        if (name !== 'blob') problem ??= badRequest(`Unexpected file part "${name}"`);
        else if ((stream as { truncated?: boolean }).truncated)
          problem ??= badRequest('The annotation sheet is too large');
        else blob = Buffer.concat(parts);
      });
    });
    bb.on('close', resolve);
    bb.on('error', () => {
      problem ??= badRequest('Malformed multipart body');
      request.raw.unpipe(bb);
      request.raw.resume();
      resolve();
    });
    request.raw.pipe(bb);
  });
  if (problem) throw problem;
  return { fields, blob };
}

/** Verdict of the lane rules on a whole sheet: throws Flow's 400s, else the files it names. */
async function judge(sheet: PendingSheet, ignoreWarnings: boolean): Promise<void> {
  let parsed;
  try {
    parsed = await readSheetBounded(
      sheet.path,
      sheet.filename,
      {},
      {
        source: 'auto',
        barcodeRead: 1,
        vocabulary: annotationVocabulary(loadVocabularies()),
      },
    );
  } catch (err) {
    if (!(err instanceof TableReadError)) throw err;
    throw new FlowError(400, { validation: [{ row: err.row, message: `The sheet cannot be read: ${err.message}` }] });
  }
  const report = parsed.planned!.report;
  const issues = (list: typeof report.errors) =>
    list.map((i) => ({ row: i.row, message: i.column ? `${i.column}: ${i.message}` : i.message }));
  if (report.errors.length || !parsed.planned!.plan) throw new FlowError(400, { validation: issues(report.errors) });
  if (report.warnings.length && !ignoreWarnings) throw new FlowError(400, { warnings: issues(report.warnings) });
  const fileColumns = parsed.headers.filter((h) => /^file\b/i.test(h.trim()));
  const names = new Set<string>();
  for (const row of parsed.rows)
    for (const h of fileColumns) if (row.values[h]?.trim()) names.add(row.values[h]!.trim());
  sheet.files = [...names];
}

/** One chunk of an annotation sheet; `done` once the sheet was accepted. */
export async function receiveAnnotationChunk(
  ctx: ServiceContext,
  user: AuthUser,
  request: FastifyRequest,
): Promise<{ id: string; done: boolean }> {
  const { fields, blob } = await readForm(request);
  if (!blob) throw new FlowError(400, { blob: ['No file was submitted.'] });
  const filename = one(fields, 'filename') ?? '';
  if (!filename) throw new FlowError(400, { filename: ['This field is required.'] });
  if (/\s/.test(filename)) throw new FlowError(400, { filename: ['Spaces in filename'] });
  if (!/\.(xlsx|csv|tsv|txt)$/i.test(filename)) throw badRequest('An annotation sheet is an .xlsx, .csv or .tsv file');
  const offset = Number(one(fields, 'expected_file_size') ?? 'x');
  if (!Number.isSafeInteger(offset) || offset < 0) throw badRequest('expected_file_size must be a byte offset');
  const sheets = pendingSheets(ctx);
  const data = one(fields, 'data') ?? '';
  let sheet: PendingSheet | undefined;
  if (!data) {
    if (offset !== 0) throw badRequest(`expected_file_size is ${offset}, but a new upload starts at offset 0`);
    const dir = join(ctx.config.dataDir, 'uploads', 'tmp');
    mkdirSync(dir, { recursive: true });
    sheet = {
      id: `annotation-${randomUUID()}`,
      userId: user.id,
      path: join(dir, `flow-sheet-${randomBytes(8).toString('hex')}`),
      filename,
      size: 0,
      accepted: false,
      files: [],
      created: ctx.clock.now(),
      used: false,
    };
    sheets.set(sheet.id, sheet);
  } else {
    sheet = sheets.get(data);
    if (!sheet || sheet.userId !== user.id) throw badRequest(`No annotation upload "${data}" of yours is in progress`);
  }
  if (sheet.accepted) return { id: sheet.id, done: true };
  if (offset === sheet.size) {
    if (sheet.size + blob.length > MAX_SHEET_BYTES) throw badRequest('The annotation sheet is too large');
    appendFileSync(sheet.path, blob, { mode: 0o600 });
    sheet.size += blob.length;
  } else if (offset + blob.length !== sheet.size) {
    throw badRequest(`Wrong offset: expected_file_size is ${offset}, the service holds ${sheet.size} bytes`);
  }
  if (!flag(fields, 'is_last')) return { id: sheet.id, done: false };
  try {
    await judge(sheet, flag(fields, 'ignore_warnings'));
  } catch (err) {
    dropSheet(ctx, sheet);
    throw err;
  }
  sheet.accepted = true;
  return { id: sheet.id, done: true };
}
