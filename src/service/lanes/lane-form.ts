/**
 * Reads the multipart body of POST /api/upload/multiplexed: fields, the annotation sheet and
 * the lane's reads (read 1 in `file`, read 2 in `file2`, index reads in `index1`/`index2`), each streamed to a temporary file
 * under the data folder and hashed on the way. FASTQ parts are judged on their first bytes
 * like chunked uploads; reads may instead name data already uploaded in chunks
 * (`file_data_id`, `file2_data_id`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { MAX_FILE_BYTES } from '../../shared/limits';
import { TABLE_LIMITS } from '../../shared/sheets/table-limits';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { fieldBag } from '../http/form-fields';
import { sinkPart } from '../uploads/chunk-sink';
import { fastqKindOf, sniffFor } from '../uploads/format-sniff';
import { filenameProblem } from '../uploads/upload-filename';

/** Largest annotation sheet accepted: the readers' own bound (20 MiB). */
export const MAX_SHEET_BYTES = TABLE_LIMITS.maxFileBytes;

export interface ReceivedFile {
  path: string;
  filename: string;
  size: number;
  sha256: string;
}

export interface LaneForm {
  fields: Record<string, string>;
  annotation: ReceivedFile | null;
  read1: ReceivedFile | null;
  read2: ReceivedFile | null;
  /** Index reads as files (I1, I2), as BCL Convert writes them with --create-fastq-for-index-reads. */
  index1: ReceivedFile | null;
  index2: ReceivedFile | null;
  /** Removes whatever temporary files are still there. */
  cleanup(): void;
}

async function receive(ctx: ServiceContext, part: string, stream: Readable, filename: string): Promise<ReceivedFile> {
  const dir = join(ctx.config.dataDir, 'uploads', 'tmp');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `lane-${randomBytes(8).toString('hex')}`);
  const problem = filenameProblem(filename);
  const isSheet = part === 'annotation';
  const kind = isSheet ? null : fastqKindOf(filename);
  let early: ApiError | null = null;
  if (problem) early = errors.validation({ [part]: `file name ${problem}` });
  else if (!isSheet && !kind) {
    early = new ApiError(
      'INVALID_FORMAT',
      `${part}: file type not accepted: expected .fastq, .fq, .fastq.gz or .fq.gz`,
    );
  } else if (isSheet && !/\.(xlsx|csv|tsv|txt)$/i.test(filename)) {
    early = errors.validation({ annotation: 'must be an .xlsx or .csv sheet' }, 'The annotation must be xlsx or csv');
  }
  const fh = await open(path, 'w', 0o600);
  const hash = createHash('sha256');
  try {
    const sink = await sinkPart(stream, {
      target: early ? null : { fh, position: 0 },
      cap: () => (isSheet ? MAX_SHEET_BYTES : MAX_FILE_BYTES),
      hashes: [hash],
      sniff: kind ? sniffFor(kind, true) : undefined,
    });
    if (early) throw early;
    if (sink.problem?.code === 'VALIDATION_ERROR' || sink.truncated) {
      throw new ApiError('PAYLOAD_TOO_LARGE', `${part} exceeds ${isSheet ? '20 MiB' : '50 GB'}`);
    }
    if (sink.problem) throw sink.problem;
    return { path, filename, size: sink.size, sha256: hash.digest('hex') };
  } catch (err) {
    rmSync(path, { force: true });
    throw err;
  } finally {
    await fh.close();
  }
}

type FileSlot = 'annotation' | 'read1' | 'read2' | 'index1' | 'index2';

/** The file parts a form takes, by part name: a lane's, or (sheet records) the sheet alone. */
const LANE_PARTS: Readonly<Record<string, FileSlot>> = {
  annotation: 'annotation',
  file: 'read1',
  file2: 'read2',
  index1: 'index1',
  index2: 'index2',
};
export const SHEET_PART_ONLY: Readonly<Record<string, FileSlot>> = { annotation: 'annotation' };

/**
 * Reads the whole form; throws the first problem after the body has been consumed. A file part
 * that `slots` does not name is refused as it arrives, its bytes never stored.
 */
export async function readLaneForm(
  ctx: ServiceContext,
  request: FastifyRequest,
  slots: Readonly<Record<string, FileSlot>> = LANE_PARTS,
): Promise<LaneForm> {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    throw errors.validation({ body: 'expected multipart/form-data' }, 'Send the lane as multipart/form-data');
  }
  const form: LaneForm = {
    fields: fieldBag<string>(),
    annotation: null,
    read1: null,
    read2: null,
    index1: null,
    index2: null,
    cleanup() {
      for (const f of [form.annotation, form.read1, form.read2, form.index1, form.index2]) {
        if (f) rmSync(f.path, { force: true });
      }
    },
  };
  const pending: Array<Promise<void>> = [];
  let problem: unknown = null;
  await new Promise<void>((resolve) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: request.headers,
        limits: { fileSize: MAX_FILE_BYTES, files: 5, fields: 20, fieldSize: 4096 },
      });
    } catch {
      problem = errors.validation({ body: 'expected a multipart/form-data body with a boundary' });
      if (request.raw.readableEnded) resolve();
      else request.raw.once('end', resolve).resume();
      return;
    }
    bb.on('field', (name, value) => (form.fields[name] = value));
    bb.on('file', (name, stream, info) => {
      const slot = Object.hasOwn(slots, name) ? slots[name] : undefined;
      if (!slot || form[slot] || problem) {
        problem ??= errors.validation({ [name]: slot ? 'sent twice' : 'unexpected file part' });
        stream.resume();
        return;
      }
      pending.push(
        receive(ctx, name, stream, info.filename ?? '').then(
          (file) => {
            form[slot] = file;
          },
          (err: unknown) => {
            problem ??= err;
            stream.resume();
          },
        ),
      );
    });
    bb.on('close', resolve);
    bb.on('error', (err) => {
      problem ??= errors.validation({ body: `malformed multipart body: ${(err as Error).message}` });
      request.raw.unpipe(bb);
      request.raw.resume();
      resolve();
    });
    request.raw.pipe(bb);
  });
  await Promise.all(pending);
  if (problem) {
    form.cleanup();
    throw problem;
  }
  return form;
}
