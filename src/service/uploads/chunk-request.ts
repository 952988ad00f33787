/**
 * Reading a chunk request: a multipart form of text fields and one file part, read with busboy
 * as it arrives. The file part is handed over, with the fields that came before it, the moment
 * it starts, so that its bytes go to their place while the request is still arriving. POST
 * /api/upload and the Flow mount's offset chunks both read their chunks here; they differ in
 * their field names and in how a malformed form is answered.
 */
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { MAX_CHUNK_BYTES } from '../../shared/limits';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { fieldBag } from '../http/form-fields';
import { storageFullError } from '../http/storage-errors';
import type { AuthUser } from '../auth/authenticate';
import { commitChunk } from './chunk-commit';
import { hasPlacementFields, parseChunkFields, type ChunkFields } from './chunk-fields';
import { ChunkPart } from './chunk-part';

/** A form's text fields, every value of each in the order sent. */
export type FormFields = Record<string, string[]>;

/** A copy of the fields read so far (the file part keeps them; later fields do not change them). */
function copyFields(fields: FormFields): FormFields {
  const copy = fieldBag<string[]>();
  for (const name in fields) copy[name] = fields[name]!.slice();
  return copy;
}

export interface ChunkRequestOptions {
  /** The file part's name. */
  fileField: string;
  /** Most text fields the form may have. */
  maxFields: number;
  /** The answer to a malformed form: the field at fault and what is wrong. */
  refuse(field: string, problem: string): Error;
  /** Starts receiving the file part with the fields read so far; a throw refuses the chunk. */
  startFile(fields: FormFields, stream: Readable): Promise<ChunkPart>;
}

/** Reads the whole request; resolves with its fields and the file part (null when it had none). */
export async function readChunkRequest(
  request: FastifyRequest,
  opts: ChunkRequestOptions,
): Promise<{ fields: FormFields; part: ChunkPart | null }> {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    throw opts.refuse('body', 'Send chunks as multipart/form-data');
  }
  const fields = fieldBag<string[]>();
  // Set by busboy's callbacks (so typed wide: the compiler cannot see them run).
  let part = null as Promise<ChunkPart> | null;
  let problem: unknown = null;
  let failure: unknown = null;
  const bad = (field: string, message: string) => (problem ??= opts.refuse(field, message));
  await new Promise<void>((resolve) => {
    let bb: busboy.Busboy;
    try {
      const n = opts.maxFields;
      bb = busboy({
        headers: request.headers,
        limits: { fileSize: MAX_CHUNK_BYTES, files: 1, fields: n, fieldSize: 4096, parts: n + 1 },
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
      else (fields[name] ??= []).push(value);
    });
    bb.on('file', (name, stream) => {
      // A client that goes away destroys busboy, which destroys this stream with the same
      // error; busboy's own 'error' reports it, so a stream nobody reads any more (a refused
      // part, one whose reader has finished) must not turn it into an uncaught exception.
      stream.on('error', () => {});
      if (name !== opts.fileField || part || problem) {
        bad(name, name === opts.fileField ? 'only one file part per chunk' : `unexpected file part "${name}"`);
        stream.resume();
        return;
      }
      try {
        part = opts.startFile(copyFields(fields), stream);
      } catch (err) {
        problem ??= err;
        stream.resume();
        return;
      }
      part.catch(() => {});
    });
    bb.on('partsLimit', () => bad('body', 'too many parts'));
    bb.on('fieldsLimit', () => bad('body', 'too many fields'));
    bb.on('filesLimit', () => bad(opts.fileField, 'only one file part per chunk'));
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
  let received: ChunkPart | null = null;
  if (part) {
    try {
      received = await part;
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure || problem) received?.discard();
  if (failure) {
    if (failure instanceof ApiError) throw failure;
    throw (
      storageFullError(failure) ??
      errors.validation({ body: 'malformed or interrupted multipart body' }, 'Malformed multipart body')
    );
  }
  if (problem) throw problem;
  return { fields, part: received };
}

/** The last value of each field (a repeated field's last copy counts). */
function lastValues(fields: FormFields): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[v.length - 1]!]));
}

/**
 * POST /api/upload: reads the chunk, parses its fields once (when its file part starts, or at
 * the end when the file came first) and commits it.
 */
export async function receiveUploadChunk(ctx: ServiceContext, user: AuthUser, request: FastifyRequest) {
  let atFile: Record<string, string> | null = null;
  const { fields, part } = await readChunkRequest(request, {
    fileField: 'file',
    maxFields: 16,
    refuse: (field, problem) => errors.validation({ [field]: problem }, problem),
    startFile: (before, stream) => {
      const raw = (atFile = lastValues(before));
      let parsed: ChunkFields | ApiError | null = null;
      if (hasPlacementFields(raw)) {
        try {
          parsed = parseChunkFields(raw);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          parsed = err;
        }
      }
      return ChunkPart.receive(ctx, user, parsed, stream, { whole: true });
    },
  });
  if (!part) throw errors.validation({ file: 'required' }, 'The chunk has no file part');
  const got = part.received;
  if (got.mode === 'refused') {
    part.discard();
    throw got.error;
  }
  const raw = lastValues(fields);
  if (part.fields) {
    // Placed when its file started: a field after the file could no longer change where it went.
    const changed = Object.keys(raw).find((k) => raw[k] !== atFile?.[k]);
    if (changed) {
      part.discard();
      throw errors.validation(
        { [changed]: 'sent after the file part: the fields that describe a chunk come before it' },
        'Conflicting fields',
      );
    }
  }
  let late: ChunkFields | null = null;
  try {
    if (!part.fields) late = parseChunkFields(raw);
  } catch (err) {
    part.discard();
    throw err;
  }
  return commitChunk(ctx, user, part, late);
}
