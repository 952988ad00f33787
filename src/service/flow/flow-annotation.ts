/**
 * POST /upload/annotation (FLOW-WIRE.md §4.2): the lane sheet arrives in offset chunks, is read
 * and checked on its last chunk by the same sheet reader and lane rules as /api's lanes, and
 * answers Flow's verdicts: 400 `{"validation": [...]}` for errors, 400 `{"warnings": [...]}`
 * unless `ignore_warnings` (flowbio then sends the whole sheet again with it), else its id.
 * An accepted sheet waits for its reads (flow-multiplexed.ts). Sheets are small: a chunk is
 * held in memory while appended. Pending sheets are rows in the database with their bytes in
 * `<data>/flow-sheets/` (flow-sheets.store.ts), so a restart between the sheet and its reads
 * keeps them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { TableReadError } from '../../shared/sheets/table-limits';
import type { ServiceContext, StoreContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { fieldBag } from '../http/form-fields';
import { MAX_SHEET_BYTES } from '../lanes/lane-form';
import { reusedSampleNames } from '../lanes/lanes.commands';
import { annotationVocabulary, loadVocabularies } from '../vocabularies/vocabularies';
import { type FlowFields, flag, one } from './flow-chunks';
import { badRequest, FlowError } from './flow-errors';
import {
  acceptSheet,
  deleteSheet,
  insertSheet,
  setSheetSize,
  sheetById,
  sheetFiles,
  sheetsCreatedBefore,
  type PendingSheet,
} from './flow-sheets.store';

/** Sheets not used within a day are forgotten. */
const PENDING_MS = 24 * 3600 * 1000;

function sheetsDir(ctx: StoreContext): string {
  return join(ctx.config.dataDir, 'flow-sheets');
}

/** Where a pending sheet's bytes are. */
export function sheetPath(ctx: StoreContext, sheet: PendingSheet): string {
  return join(sheetsDir(ctx), sheet.file);
}

/** At start: removes sheet files no row names (a crash between writing one and its row). */
export function sweepSheetFiles(ctx: StoreContext): void {
  if (!existsSync(sheetsDir(ctx))) return;
  const named = sheetFiles(ctx);
  for (const name of readdirSync(sheetsDir(ctx))) if (!named.has(name)) rmSync(join(sheetsDir(ctx), name));
}

/** Forgets sheets older than a day, with their files. */
export function expireSheets(ctx: ServiceContext): void {
  for (const sheet of sheetsCreatedBefore(ctx, ctx.clock.now() - PENDING_MS)) dropSheet(ctx, sheet);
}

/** Forgets a sheet and its file. */
export function dropSheet(ctx: ServiceContext, sheet: PendingSheet): void {
  deleteSheet(ctx, sheet.id);
  rmSync(sheetPath(ctx, sheet), { force: true });
}

async function readForm(request: FastifyRequest): Promise<{ fields: FlowFields; blob: Buffer | null }> {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    throw badRequest('Send chunks as multipart/form-data');
  }
  const fields: FlowFields = fieldBag<string[]>();
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
async function judge(
  ctx: ServiceContext,
  user: AuthUser,
  sheet: PendingSheet,
  ignoreWarnings: boolean,
): Promise<string[]> {
  let parsed;
  try {
    parsed = await ctx.parts.sheetParser.read(
      sheetPath(ctx, sheet),
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
  // Names the caller already has on the service are warnings here too (the lane path's rule): the
  // lane made from these reads later is created with the warnings already accepted.
  const warnings = [...report.warnings, ...reusedSampleNames(ctx, user, parsed.planned!.plan.samples)];
  if (warnings.length && !ignoreWarnings) throw new FlowError(400, { warnings: issues(warnings) });
  const fileColumns = parsed.headers.filter((h) => /^file\b/i.test(h.trim()));
  const names = new Set<string>();
  for (const row of parsed.rows)
    for (const h of fileColumns) if (row.values[h]?.trim()) names.add(row.values[h]!.trim());
  return [...names];
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
  expireSheets(ctx);
  const data = one(fields, 'data') ?? '';
  let sheet: PendingSheet | undefined;
  if (!data) {
    if (offset !== 0) throw badRequest(`expected_file_size is ${offset}, but a new upload starts at offset 0`);
    mkdirSync(sheetsDir(ctx), { recursive: true });
    const id = `annotation-${randomUUID()}`;
    const file = `flow-sheet-${randomBytes(8).toString('hex')}`;
    insertSheet(ctx, { id, userId: user.id, file, filename, created: ctx.clock.now() });
    sheet = sheetById(ctx, id)!;
  } else {
    sheet = sheetById(ctx, data);
    if (!sheet || sheet.userId !== user.id) throw badRequest(`No annotation upload "${data}" of yours is in progress`);
  }
  if (sheet.accepted) return { id: sheet.id, done: true };
  if (offset === sheet.size) {
    if (sheet.size + blob.length > MAX_SHEET_BYTES) throw badRequest('The annotation sheet is too large');
    appendFileSync(sheetPath(ctx, sheet), blob, { mode: 0o600 });
    sheet = { ...sheet, size: sheet.size + blob.length };
    setSheetSize(ctx, sheet.id, sheet.size);
  } else if (offset + blob.length !== sheet.size) {
    throw badRequest(`Wrong offset: expected_file_size is ${offset}, the service holds ${sheet.size} bytes`);
  }
  if (!flag(fields, 'is_last')) return { id: sheet.id, done: false };
  let files: string[];
  try {
    files = await judge(ctx, user, sheet, flag(fields, 'ignore_warnings'));
  } catch (err) {
    dropSheet(ctx, sheet);
    throw err;
  }
  acceptSheet(ctx, sheet.id, files);
  return { id: sheet.id, done: true };
}
