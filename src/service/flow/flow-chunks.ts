/**
 * Flow's offset chunk protocol (FLOW-WIRE.md §3) translated onto the service's own chunked
 * upload machinery: each Flow chunk becomes one chunk of a Laneway upload (same receiver, same
 * format sniffing, chunk-size rules, re-send comparison, checksums, duplicate refusal, size
 * limits, disk-full answers and expiry of abandoned uploads).
 *
 * Mapping: the first chunk (`data` empty, offset 0) opens an upload under a fresh file_id,
 * which is the id answered for the next chunk's `data`; a later chunk's index is its offset
 * divided by the chunk size learnt from chunk 0. An offset of a chunk already held is a
 * re-send (compared, answered as before); an offset past what is held is refused.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { MAX_CHUNK_BYTES } from '../../shared/limits';
import type { ServiceContext } from '../context';
import type { DataRow } from '../data/data.store';
import { ApiError, errors } from '../http/api-error';
import { storageFullError } from '../http/storage-errors';
import type { AuthUser } from '../auth/authenticate';
import { finishChunk } from '../uploads/chunk-finalize';
import { discardPart, startPart, type PartOutcome } from '../uploads/chunk-receiver';
import { findUpload, receivedCount } from '../uploads/uploads.store';
import { badRequest, FlowError } from './flow-errors';
import { setUploadTotalChunks } from './flow-uploads.store';

export type FlowFields = Record<string, string[]>;

export interface FlowPlacement {
  /** The Laneway upload fields this chunk stands for. */
  raw: { filename: string; chunk: string; total_chunks: string; file_id: string };
  first: boolean;
  isLast: boolean;
}

export type FlowChunkAnswer = { kind: 'chunk'; fileId: string } | { kind: 'data'; record: DataRow };

/** One text field's value (the first when repeated). */
export const one = (fields: FlowFields, key: string): string | undefined => fields[key]?.[0];

/** `"true"` (any case) is true; flowbio sends Python booleans as `true`/`false`. */
export const flag = (fields: FlowFields, key: string): boolean => (one(fields, key) ?? '').toLowerCase() === 'true';

/** Where a Flow chunk goes among the caller's uploads. */
export function placeChunk(ctx: ServiceContext, user: AuthUser, fields: FlowFields): FlowPlacement {
  const filename = one(fields, 'filename');
  if (!filename) throw new FlowError(400, { filename: ['This field is required.'] });
  if (/\s/.test(filename)) throw new FlowError(400, { filename: ['Spaces in filename'] });
  const offsetText = one(fields, 'expected_file_size') ?? '';
  if (!/^\d{1,16}$/.test(offsetText)) throw badRequest('expected_file_size must be a byte offset');
  const offset = Number(offsetText);
  const isLast = flag(fields, 'is_last');
  const data = one(fields, 'data') ?? '';
  const raw = (fileId: string, idx: number, n: number) => ({
    filename,
    chunk: String(idx),
    total_chunks: String(n),
    file_id: fileId,
  });
  if (!data) {
    if (offset !== 0) throw badRequest(`expected_file_size is ${offset}, but a new upload starts at offset 0`);
    return { raw: raw(`flow-${randomUUID()}`, 0, isLast ? 1 : 2), first: true, isLast };
  }
  const upload = findUpload(ctx, user.id, data);
  if (!upload) throw badRequest(`No upload "${data}" of yours is in progress: start again from offset 0`);
  if (upload.complete === 1) {
    // A re-sent last chunk: the machinery answers the completed record again.
    return { raw: raw(data, upload.total_chunks - 1, upload.total_chunks), first: false, isLast };
  }
  const c = upload.chunk_size;
  const received = receivedCount(ctx, upload.id);
  const held = c === null ? 0 : received * c;
  if (c === null || offset % c !== 0 || offset > held) {
    throw badRequest(`Wrong offset: expected_file_size is ${offset}, the service holds ${held} bytes of this upload`);
  }
  const idx = offset / c;
  if (isLast && received > idx + 1)
    throw badRequest(`Wrong offset: the service already holds more than ${offset} bytes`);
  const n = isLast ? idx + 1 : Math.max(upload.total_chunks, idx + 2);
  if (n !== upload.total_chunks) setUploadTotalChunks(ctx, upload.id, n);
  return { raw: raw(data, idx, n), first: false, isLast };
}

/**
 * Reads one Flow chunk request and stores its bytes through the upload machinery. `check`
 * sees the text fields before any byte is stored (an endpoint's own validation; a throw
 * refuses the chunk).
 */
export async function receiveFlowChunk(
  ctx: ServiceContext,
  user: AuthUser,
  request: FastifyRequest,
  check: (fields: FlowFields, placement: FlowPlacement) => void = () => {},
): Promise<{ fields: FlowFields; placement: FlowPlacement; answer: FlowChunkAnswer }> {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    throw badRequest('Send chunks as multipart/form-data');
  }
  const fields: FlowFields = {};
  let placement: FlowPlacement | null = null;
  let part: Promise<PartOutcome> | null = null;
  let refusal: unknown = null;
  let failure: unknown = null;
  await new Promise<void>((resolve) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: request.headers,
        limits: { fileSize: MAX_CHUNK_BYTES, files: 1, fields: 200, fieldSize: 4096, parts: 201 },
      });
    } catch {
      refusal = badRequest('Expected a multipart/form-data body with a boundary');
      if (request.raw.readableEnded) resolve();
      else request.raw.once('end', resolve).resume();
      return;
    }
    bb.on('field', (name, value) => (fields[name] ??= []).push(value));
    bb.on('file', (name, stream: Readable) => {
      stream.on('error', () => {});
      if (name !== 'blob' || part || refusal) {
        refusal ??= badRequest(name === 'blob' ? 'Only one blob per chunk' : `Unexpected file part "${name}"`);
        stream.resume();
        return;
      }
      try {
        placement = placeChunk(ctx, user, fields);
        check(fields, placement);
      } catch (err) {
        refusal = err;
        stream.resume();
        return;
      }
      part = startPart(ctx, user, { ...placement.raw }, stream);
      part.catch(() => {});
    });
    bb.on('close', resolve);
    bb.on('error', (err) => {
      failure = err;
      request.raw.unpipe(bb);
      request.raw.resume();
      resolve();
    });
    request.raw.once('close', () => {
      if (request.raw.complete) return;
      bb.destroy(new Error('The connection closed before the chunk was complete'));
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
  if (refusal || failure) {
    if (outcome) discardPart(outcome);
    if (refusal) throw refusal;
    if (failure instanceof ApiError) throw failure;
    throw storageFullError(failure) ?? errors.validation({ body: 'malformed or interrupted multipart body' });
  }
  if (!placement || !outcome) throw new FlowError(400, { blob: ['No file was submitted.'] });
  const p: FlowPlacement = placement;
  const answer = await finishChunk(ctx, user, p.raw, outcome, null);
  return {
    fields,
    placement: p,
    answer:
      answer.kind === 'chunk' ? { kind: 'chunk', fileId: p.raw.file_id } : { kind: 'data', record: answer.record },
  };
}
