/** POST /api/upload (one chunk per request) and GET /api/upload/{file_id} (what has arrived). */
import type { IncomingMessage } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { MAX_CHUNK_BYTES } from '../../shared/limits';

import type { ServiceContext } from '../context';
import { presentData } from '../data/data.presenter';
import { ApiError, errors } from '../http/api-error';
import { inMultipartScope } from '../http/multipart-scope';
import { requireUser } from '../auth/authenticate';
import { receiveUploadChunk } from './chunk-request';
import { abandonUpload } from './upload-maintenance';
import { presentUploadStatus } from './uploads.presenter';
import { findUpload } from './uploads.store';
import { wholeInFlight, wholeStatus } from './single-chunk';
import { deleteUploadByFileId, getUploadByFileId, postUpload } from '../../shared/service-api/endpoints/uploads';
import { serve } from '../http/serve-endpoint';

/** Room for the multipart framing and fields around a chunk of the largest size. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** The most of an oversized body read (and thrown away) so that its client sees the 413. */
const DRAIN_LIMIT_BYTES = 256 * 1024 * 1024;

/** Reads a request body to its end without keeping it; past `limit` bytes the socket is closed. */
function discardBody(raw: IncomingMessage, limit: number): Promise<void> {
  return new Promise((resolve) => {
    if (raw.readableEnded) return resolve();
    let seen = 0;
    raw.on('data', (d: Buffer) => {
      seen += d.length;
      if (seen > limit) raw.socket?.destroy();
    });
    raw.once('end', () => resolve());
    raw.once('close', () => resolve());
    raw.once('error', () => resolve());
    raw.resume();
  });
}

/** Registers the chunked upload routes (in a scope where multipart bodies are left unread). */
export function uploadRoutes(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  return inMultipartScope(app, (scope) => chunkRoutes(scope, ctx));
}

function chunkRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  serve(api, postUpload, async (request, reply) => {
    const user = requireUser(request);
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > MAX_CHUNK_BYTES + MULTIPART_OVERHEAD) {
      // Nothing of this body is stored, but it is read to the end (up to a bound) before the
      // answer: a 413 sent while the client is still sending, followed by a closed socket, is
      // seen by Node's fetch and most HTTP clients as a network failure, not as the 413.
      await discardBody(request.raw, DRAIN_LIMIT_BYTES);
      reply.header('connection', 'close');
      throw new ApiError('PAYLOAD_TOO_LARGE', 'Chunk exceeds the maximum chunk size of 50 MB');
    }
    const answer = await receiveUploadChunk(ctx, user, request);
    if (answer.kind === 'chunk') return reply.send(answer.body);
    return reply.send(presentData(ctx, answer.record, user));
  });

  serve(api, getUploadByFileId, async (request) => {
    const user = requireUser(request);
    const upload = findUpload(ctx, user.id, request.params.file_id);
    if (!upload) {
      // A one-chunk upload arriving now has no row until it commits (single-chunk.ts).
      const whole = wholeInFlight(ctx, user.id, request.params.file_id);
      if (whole) return wholeStatus(whole);
      throw errors.notFound('Upload');
    }
    return presentUploadStatus(ctx, user, upload);
  });

  serve(api, deleteUploadByFileId, async (request, reply) => {
    const user = requireUser(request);
    const upload = findUpload(ctx, user.id, request.params.file_id);
    if (!upload) {
      const whole = wholeInFlight(ctx, user.id, request.params.file_id);
      if (!whole) throw errors.notFound('Upload');
      // Its commit refuses, as a multi-chunk upload's chunk in flight does once abandoned.
      whole.abandoned = true;
      return reply.status(204).send();
    }
    if (upload.complete === 1) {
      throw new ApiError('CONFLICT', 'This upload is complete: delete its data record instead');
    }
    abandonUpload(ctx, upload.id);
    return reply.status(204).send();
  });
}
