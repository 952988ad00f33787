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
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import type { DataRow } from '../data/data.store';
import { ApiError } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { commitChunk } from '../uploads/chunk-commit';
import { parseChunkFields, type ChunkFields } from '../uploads/chunk-fields';
import { ChunkPart } from '../uploads/chunk-part';
import { readChunkRequest } from '../uploads/chunk-request';
import { findUpload, receivedCount } from '../uploads/uploads.store';
import { badRequest, FlowError } from './flow-errors';
import { setUploadTotalChunks } from './flow-uploads.store';

/** A Flow form's text fields (flowbio repeats some, such as `previous_data`). */
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
 * Reads one Flow chunk request and stores its bytes through the upload machinery (the same
 * request reader, part and commit as POST /api/upload). `check` sees the text fields before
 * any byte is stored (an endpoint's own validation; a throw refuses the chunk).
 */
export async function receiveFlowChunk(
  ctx: ServiceContext,
  user: AuthUser,
  request: FastifyRequest,
  check: (fields: FlowFields, placement: FlowPlacement) => void = () => {},
): Promise<{ fields: FlowFields; placement: FlowPlacement; answer: FlowChunkAnswer }> {
  let placement: FlowPlacement | null = null;
  const { fields, part } = await readChunkRequest(request, {
    fileField: 'blob',
    maxFields: 200,
    refuse: (_field, problem) => badRequest(capitalised(problem)),
    startFile: (before, stream) => {
      const p = (placement = placeChunk(ctx, user, before));
      check(before, p);
      let parsed: ChunkFields | ApiError;
      try {
        parsed = parseChunkFields(p.raw);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        parsed = err;
      }
      return ChunkPart.receive(ctx, user, parsed, stream);
    },
  });
  if (!placement || !part) throw new FlowError(400, { blob: ['No file was submitted.'] });
  const p: FlowPlacement = placement;
  const answer = await commitChunk(ctx, user, part);
  return {
    fields,
    placement: p,
    answer:
      answer.kind === 'chunk' ? { kind: 'chunk', fileId: p.raw.file_id } : { kind: 'data', record: answer.record },
  };
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
