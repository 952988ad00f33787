/**
 * The project's chunked upload client (POST /api/upload): reads a file in fixed chunks into
 * reused buffers, hashes it with sha256 while reading, and sends each chunk as one
 * multipart/form-data request through undici, with the whole file's checksum on the last
 * chunk. It resumes from what GET /api/upload/{file_id} says arrived. Its primitives
 * (chunk planning, multipart framing, one chunk's request) are exported for the desktop
 * upload queue.
 */
import { createHash, randomUUID } from 'node:crypto';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import type { UploadStatus } from '../shared/service-api/uploads';

/** The chunk size the client uses unless told otherwise (within the spec's 5-10 MB guidance). */
export const CLIENT_CHUNK_BYTES = 8 * 1024 * 1024;

/** An upload refused by the service: its error body's code and status. */
export class ChunkedUploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ChunkedUploadError';
  }
}

/** How many chunks a file of `size` bytes needs (at least one). */
export function chunkCount(size: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}

/** The multipart framing around one chunk: the fields, then the file part's header and trailer. */
export function multipartFrame(
  fields: Record<string, string | number | undefined>,
  filename: string,
  boundary = `laneway-${randomUUID()}`,
): { head: Buffer; tail: Buffer; contentType: string } {
  const quoted = filename.replace(/["\\\r\n]/g, '_');
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"\r\n`;
  head += 'Content-Type: application/octet-stream\r\n\r\n';
  return {
    head: Buffer.from(head),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export interface ChunkRequest {
  pool: Pool;
  token: string;
  filename: string;
  fileId: string;
  chunk: number;
  totalChunks: number;
  totalSize?: number;
  checksum?: string;
  chunkChecksum?: string;
  bytes: Uint8Array;
  signal?: AbortSignal;
}

/** Sends one chunk; resolves with the status and JSON body (any status: the caller decides). */
export async function sendChunk(req: ChunkRequest): Promise<{ status: number; body: Record<string, unknown> }> {
  const frame = multipartFrame(
    {
      filename: req.filename,
      chunk: req.chunk,
      total_chunks: req.totalChunks,
      file_id: req.fileId,
      total_size: req.totalSize,
      checksum: req.checksum,
      chunk_checksum: req.chunkChecksum,
    },
    req.filename,
  );
  const res = await req.pool.request({
    path: '/api/upload',
    method: 'POST',
    headers: {
      authorization: `Bearer ${req.token}`,
      'content-type': frame.contentType,
      'content-length': String(frame.head.length + req.bytes.length + frame.tail.length),
    },
    // Framing and chunk go out as they are: the chunk is never copied into a bigger buffer.
    body: Readable.from([frame.head, req.bytes, frame.tail], { objectMode: false }),
    signal: req.signal,
  });
  const text = await res.body.text();
  let body: Record<string, unknown>;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { error: text };
  }
  return { status: res.statusCode, body };
}

/** What the service holds of an upload (null when it knows no such file_id). */
export async function uploadStatus(pool: Pool, token: string, fileId: string): Promise<UploadStatus | null> {
  const res = await pool.request({
    path: `/api/upload/${encodeURIComponent(fileId)}`,
    method: 'GET',
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.body.json()) as UploadStatus;
  if (res.statusCode === 404) return null;
  if (res.statusCode !== 200) throw new ChunkedUploadError('Upload status refused', res.statusCode, 'STATUS', body);
  return body;
}

async function readFull(fh: FileHandle, buf: Buffer, length: number, position: number): Promise<Buffer> {
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(buf, got, length - got, position + got);
    if (bytesRead === 0) throw new Error(`The file shrank while uploading (at byte ${position + got})`);
    got += bytesRead;
  }
  return buf.subarray(0, length);
}

export interface UploadFileOptions {
  origin: string;
  token: string;
  path: string;
  filename?: string;
  fileId?: string;
  chunkSize?: number;
  /** Chunks in flight at once (default 1: in order, which lets the service hash as they arrive). */
  concurrency?: number;
  /** sha256 of the file when already known: sent with the first chunk, so a duplicate is refused at once. */
  checksum?: string;
  onProgress?: (sentBytes: number, totalBytes: number) => void;
  signal?: AbortSignal;
  /** Reuse a pool (the desktop queue keeps one per service). */
  pool?: Pool;
}

export interface UploadFileResult {
  /** The data record the service created (or the existing one for a duplicate). */
  dataId: number;
  duplicate: boolean;
  checksum: string;
  record: Record<string, unknown>;
}

/** Uploads a whole file in chunks, resuming whatever the service already holds of `fileId`. */
export async function uploadFile(opts: UploadFileOptions): Promise<UploadFileResult> {
  const chunkSize = opts.chunkSize ?? CLIENT_CHUNK_BYTES;
  const size = (await stat(opts.path)).size;
  const total = chunkCount(size, chunkSize);
  const filename = opts.filename ?? basename(opts.path);
  const fileId = opts.fileId ?? randomUUID();
  const concurrency = Math.max(1, opts.concurrency ?? 1);
  const pool = opts.pool ?? new Pool(opts.origin, { connections: concurrency, pipelining: 1 });
  const fh = await open(opts.path, 'r');
  const hash = createHash('sha256');
  // One buffer per chunk in flight plus one being read and hashed meanwhile, reused: memory
  // stays flat whatever the file's size, and reading overlaps sending.
  const free = Array.from({ length: concurrency + 1 }, () =>
    Buffer.allocUnsafe(Math.min(chunkSize, Math.max(size, 1))),
  );
  const inFlight = new Set<Promise<void>>();
  let final: { status: number; body: Record<string, unknown> } | null = null;
  let sent = 0;
  let failure: unknown = null;
  try {
    const status = await uploadStatus(pool, opts.token, fileId);
    if (status?.complete && status.data_id !== null) {
      return { dataId: status.data_id, duplicate: false, checksum: '', record: { id: status.data_id } };
    }
    const have = new Set(status?.received_chunks ?? []);
    for (let i = 0; i < total; i++) {
      if (failure) break;
      opts.signal?.throwIfAborted();
      const length = Math.min(chunkSize, size - i * chunkSize);
      while (free.length === 0) await Promise.race(inFlight);
      const buffer = free.pop()!;
      const bytes = await readFull(fh, buffer, Math.max(length, 0), i * chunkSize);
      hash.update(bytes);
      const last = i === total - 1;
      if (have.has(i) && !last) {
        free.push(buffer);
        sent += length;
        opts.onProgress?.(sent, size);
        continue;
      }
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      if (failure) {
        free.push(buffer);
        break;
      }
      const checksum = last ? hash.digest('hex') : opts.checksum;
      const send = sendChunk({
        pool,
        token: opts.token,
        filename,
        fileId,
        chunk: i,
        totalChunks: total,
        totalSize: size,
        checksum,
        bytes,
        signal: opts.signal,
      }).then((res) => {
        if (res.status !== 200) {
          failure ??= new ChunkedUploadError(
            String(res.body.error ?? `chunk ${i} refused`),
            res.status,
            String(res.body.code ?? 'HTTP'),
            res.body,
          );
          return;
        }
        if (last) final = res;
        sent += length;
        opts.onProgress?.(sent, size);
      });
      const tracked: Promise<void> = send
        .catch((err: unknown) => {
          failure ??= err;
        })
        .finally(() => {
          inFlight.delete(tracked);
          free.push(buffer);
        });
      inFlight.add(tracked);
      // The last chunk completes the file: every other chunk must have been acknowledged first.
      if (i === total - 2 || total === 1) await Promise.all(inFlight);
    }
    await Promise.all(inFlight);
    if (failure instanceof ChunkedUploadError && failure.code === 'DUPLICATE_FILE') {
      return { dataId: failure.body.data_id as number, duplicate: true, checksum: '', record: failure.body };
    }
    if (failure) throw failure;
    const record = (final as { body: Record<string, unknown> } | null)?.body;
    if (!record || typeof record.id !== 'number')
      throw new Error('The service did not answer the last chunk with a record');
    return { dataId: record.id, duplicate: false, checksum: String(record.checksum), record };
  } finally {
    await fh.close();
    if (!opts.pool) await pool.close();
  }
}
