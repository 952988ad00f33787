/**
 * POST /api/upload, the receiving half: reads the multipart request with busboy and streams the
 * file part to its place as it arrives. Where the part goes is decided when it starts: straight
 * into the upload's file at the chunk's offset when that offset is known, hashed only when the
 * chunk was already acknowledged (a re-send to compare), or to a spool file otherwise (the
 * offset is not yet known, the same chunk is being written by another request, or the form
 * sent the file before the fields that place it).
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { constants, mkdirSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { MAX_CHUNK_BYTES } from '../../shared/limits';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { storageFullError } from '../http/storage-errors';
import type { AuthUser } from '../auth/authenticate';
import { sinkPart, type SinkResult } from './chunk-sink';
import { contentProblem, type UploadKind } from './format-sniff';
import { hasPlacementFields, parseChunkFields, type ChunkFields } from './upload-fields';
import { liveUpload, type LiveUpload } from './upload-live';
import { openUpload } from './upload-open';
import { uploadDataFile, uploadDir, uploadsRoot } from './upload-paths';
import { chunkOf, type UploadRow } from './uploads.store';

export type PartMode = 'direct' | 'compare' | 'spool' | 'complete' | 'refused';

export interface PartOutcome {
  mode: PartMode;
  /** Fields known when the part started (null when the file came first). */
  fields: ChunkFields | null;
  upload: UploadRow | null;
  live: LiveUpload | null;
  sink: SinkResult | null;
  spoolPath: string | null;
  chunkHash: Hash | null;
  tee: Hash | null;
  error: ApiError | null;
  /** Releases the chunk index this part holds (direct writes); always called once. */
  release: () => void;
}

/** Sniffs the first bytes of chunk 0 against the declared kind. */
export function sniffFor(kind: UploadKind, isLastChunk: boolean) {
  return (head: Buffer, ended: boolean): ApiError | null => {
    const problem = contentProblem(kind, head, ended && isLastChunk);
    return problem ? new ApiError('INVALID_FORMAT', `File content does not match its extension: ${problem}`) : null;
  };
}

/** Opens (creating) the upload's file for positional writes. */
export async function openDataFile(ctx: ServiceContext, uploadId: number): Promise<FileHandle> {
  mkdirSync(uploadDir(ctx, uploadId), { recursive: true });
  return open(uploadDataFile(ctx, uploadId), constants.O_RDWR | constants.O_CREAT, 0o600);
}

function spoolName(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return join(dir, `spool-${randomBytes(8).toString('hex')}`);
}

async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream as AsyncIterable<Buffer>) void _;
}

function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  throw err;
}

/** Undoes what a part holds: its chunk index, its claim on the running hash, its spool file. */
export function discardPart(out: PartOutcome): void {
  out.release();
  out.release = () => {};
  if (out.tee && out.live) out.live.teeing = false;
  out.tee = null;
  if (out.spoolPath) rmSync(out.spoolPath, { force: true });
  out.spoolPath = null;
}

/** Consumes one file part; on failure releases whatever it held (also the Flow mount's way in). */
export async function startPart(
  ctx: ServiceContext,
  user: AuthUser,
  raw: Record<string, string>,
  stream: Readable,
): Promise<PartOutcome> {
  const out = emptyOutcome();
  try {
    return await consumePart(ctx, user, raw, stream, out);
  } catch (err) {
    discardPart(out);
    stream.resume();
    throw err;
  }
}

function emptyOutcome(): PartOutcome {
  return {
    mode: 'spool',
    fields: null,
    upload: null,
    live: null,
    sink: null,
    spoolPath: null,
    chunkHash: null,
    tee: null,
    error: null,
    release: () => {},
  };
}

/** Consumes one file part according to what is known when it starts. */
async function consumePart(
  ctx: ServiceContext,
  user: AuthUser,
  raw: Record<string, string>,
  stream: Readable,
  out: PartOutcome,
): Promise<PartOutcome> {
  if (hasPlacementFields(raw)) {
    try {
      out.fields = parseChunkFields(raw);
      out.upload = openUpload(ctx, user, out.fields);
    } catch (err) {
      out.error = asApiError(err);
      out.mode = 'refused';
      await drain(stream);
      return out;
    }
  }
  const f = out.fields;
  const upload = out.upload;
  if (f && upload) {
    if (upload.complete === 1) {
      out.mode = 'complete';
      await drain(stream);
      return out;
    }
    const live = (out.live = liveUpload(ctx, upload.id, upload.chunk_size));
    const isLast = f.chunk === f.totalChunks - 1;
    const sniff = f.chunk === 0 ? sniffFor(f.kind, isLast) : undefined;
    if (chunkOf(ctx, upload.id, f.chunk)) {
      out.mode = 'compare';
      out.chunkHash = createHash('sha256');
      out.sink = await sinkPart(stream, { target: null, cap: () => MAX_CHUNK_BYTES, hashes: [out.chunkHash] });
      return out;
    }
    if (!live.inflight.has(f.chunk) && (f.chunk === 0 || live.chunkSize !== null)) {
      out.mode = 'direct';
      let done!: () => void;
      live.inflight.set(f.chunk, new Promise<void>((r) => (done = r)));
      out.release = () => {
        live.inflight.delete(f.chunk);
        done();
      };
      const hashes: Hash[] = [];
      if (f.chunkChecksum) hashes.push((out.chunkHash = createHash('sha256')));
      if (f.chunk === live.hashedUpTo && !live.teeing && !live.hashing) {
        live.teeing = true;
        hashes.push((out.tee = live.hash.copy()));
      }
      const fh = await openDataFile(ctx, upload.id);
      try {
        const cap = () => live.chunkSize ?? MAX_CHUNK_BYTES;
        const position = f.chunk * (live.chunkSize ?? 0);
        out.sink = await sinkPart(stream, { target: { fh, position }, cap, hashes, sniff });
      } finally {
        await fh.close();
      }
      return out;
    }
    out.spoolPath = spoolName(uploadDir(ctx, upload.id));
    out.chunkHash = createHash('sha256');
    const fh = await open(out.spoolPath, 'w', 0o600);
    try {
      const target = { fh, position: 0 };
      out.sink = await sinkPart(stream, { target, cap: () => MAX_CHUNK_BYTES, hashes: [out.chunkHash], sniff });
    } finally {
      await fh.close();
    }
    return out;
  }
  // The file came before the fields that place it: keep it aside until they arrive.
  out.spoolPath = spoolName(join(uploadsRoot(ctx), 'tmp'));
  out.chunkHash = createHash('sha256');
  const fh = await open(out.spoolPath, 'w', 0o600);
  try {
    const capture = () => null;
    const target = { fh, position: 0 };
    out.sink = await sinkPart(stream, { target, cap: () => MAX_CHUNK_BYTES, hashes: [out.chunkHash], sniff: capture });
  } finally {
    await fh.close();
  }
  return out;
}

/** Reads the whole multipart request; resolves with its fields and the file part's outcome. */
export async function readChunkRequest(
  ctx: ServiceContext,
  user: AuthUser,
  request: FastifyRequest,
): Promise<{ raw: Record<string, string>; part: PartOutcome | null; problem: ApiError | null }> {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    throw errors.validation({ body: 'expected multipart/form-data' }, 'Send chunks as multipart/form-data');
  }
  const raw: Record<string, string> = {};
  let part: Promise<PartOutcome> | null = null;
  let problem: ApiError | null = null;
  const bad = (field: string, message: string) => (problem ??= errors.validation({ [field]: message }, message));
  let failure: unknown = null;
  await new Promise<void>((resolve) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: request.headers,
        limits: { fileSize: MAX_CHUNK_BYTES, files: 1, fields: 16, fieldSize: 4096, parts: 17 },
      });
    } catch {
      // A malformed multipart header (no boundary): drain what the client sends, then answer.
      bad('body', 'expected a multipart/form-data body with a boundary');
      if (request.raw.readableEnded) resolve();
      else request.raw.once('end', resolve).resume();
      return;
    }
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) bad(name, 'value too long');
      else raw[name] = value;
    });
    bb.on('file', (name, stream) => {
      // A client that goes away destroys busboy, which destroys this stream with the same
      // error; busboy's own 'error' reports it, so a stream nobody reads any more (a refused
      // part, one whose reader has finished) must not turn it into an uncaught exception.
      stream.on('error', () => {});
      if (name !== 'file' || part) {
        bad(name, name === 'file' ? 'only one file part per chunk' : 'unexpected file part');
        stream.resume();
        return;
      }
      part = startPart(ctx, user, { ...raw }, stream);
      part.catch(() => {});
    });
    bb.on('partsLimit', () => bad('body', 'too many parts'));
    bb.on('fieldsLimit', () => bad('body', 'too many fields'));
    bb.on('filesLimit', () => bad('file', 'only one file part per chunk'));
    bb.on('close', resolve);
    bb.on('error', (err) => {
      failure = err;
      request.raw.unpipe(bb);
      request.raw.resume();
      resolve();
    });
    // A client that goes away mid-body (network loss, a killed uploader) must not leave the
    // part waiting forever: it holds its chunk index, and every re-send would queue behind it.
    request.raw.once('close', () => {
      if (request.raw.complete) return;
      bb.destroy(new Error('The connection closed before the chunk was complete'));
      // The client is gone; a half-closed socket left open would also hold up shutdown.
      request.raw.socket?.destroy();
    });
    request.raw.pipe(bb);
  });
  let outcome: PartOutcome | null = null;
  if (part) {
    try {
      outcome = await part;
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) {
    if (outcome) discardPart(outcome);
    if (failure instanceof ApiError) throw failure;
    const full = storageFullError(failure);
    if (full) throw full;
    throw errors.validation({ body: 'malformed or interrupted multipart body' }, 'Malformed multipart body');
  }
  return { raw, part: outcome, problem };
}
