/**
 * One chunk's file part, from its first byte to its commit or discard, and the one owner of
 * what it holds. Where its bytes go is decided when it starts: straight into the upload's file
 * at the chunk's offset when that offset is known, hashed only when the chunk was already
 * acknowledged (a re-send to compare), or to a spool file otherwise (the offset is not yet
 * known, the same chunk is being written by another request, or the form sent the file before
 * the fields that place it). Meanwhile the part may hold the chunk's index against concurrent
 * writers, a claim on the upload's running hash, and a spool file; the commit asks it to hand
 * these over, and anything not handed over goes with `discard`.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { MAX_CHUNK_BYTES } from '../../shared/limits';
import type { ServiceContext } from '../context';
import { ApiError } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { sinkPart, type SinkResult } from './chunk-sink';
import type { ChunkFields } from './chunk-fields';
import { sniffFor } from './format-sniff';
import { discardSpool, spool, writeAt } from './upload-files';
import { claimTee, dropTee, holdChunk, liveUpload, uploadsAreSynced, type LiveUpload } from './upload-live';
import { openUpload } from './upload-open';
import { spoolWhole } from './single-chunk-files';
import { arrivesWhole, beginWhole, wholeSettled, type WholeUpload } from './single-chunk';
import { chunkOf, type UploadRow } from './uploads.store';

/** What became of the part's bytes. */
export type Received =
  | { mode: 'refused'; error: ApiError }
  | { mode: 'complete'; upload: UploadRow }
  | { mode: 'compare'; upload: UploadRow; sink: SinkResult; digest: string }
  | { mode: 'direct'; upload: UploadRow; sink: SinkResult; digest: string | null }
  | { mode: 'spool'; upload: UploadRow | null; sink: SinkResult; digest: string }
  | { mode: 'whole'; whole: WholeUpload; sink: SinkResult; digest: string };

async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream as AsyncIterable<Buffer>) void _;
}

export class ChunkPart {
  private got: Received | null = null;
  private live: LiveUpload | null = null;
  private releaseIndex: (() => void) | null = null;
  private tee: Hash | null = null;
  private spoolPath: string | null = null;
  private whole: WholeUpload | null = null;

  /** `fields` are null when the file part came before them, or the error that refused them. */
  private constructor(readonly fields: ChunkFields | null) {}

  /**
   * Consumes one file part; on failure lets go of whatever it held. Also the Flow mount's way
   * in (its offset chunks become chunks of an upload). With `whole`, a new upload's only chunk
   * takes the one-chunk path (single-chunk.ts); POST /api/upload asks for it.
   */
  static async receive(
    ctx: ServiceContext,
    user: AuthUser,
    fields: ChunkFields | ApiError | null,
    stream: Readable,
    options: { whole?: boolean } = {},
  ): Promise<ChunkPart> {
    const part = new ChunkPart(fields instanceof ApiError ? null : fields);
    try {
      part.got =
        fields instanceof ApiError ? await refuse(stream, fields) : await part.consume(ctx, user, stream, options);
      return part;
    } catch (err) {
      part.discard();
      stream.resume();
      throw err;
    }
  }

  /** What became of the bytes. */
  get received(): Received {
    return this.got!;
  }

  /** Lets go of the chunk's index: the chunk is recorded, others may compare against it now. */
  recorded(): void {
    this.releaseIndex?.();
    this.releaseIndex = null;
  }

  /** The running hash extended by this chunk, when it streamed in at the end of the hashed prefix; handed over once. */
  takeTee(): Hash | null {
    const tee = this.tee;
    this.tee = null;
    return tee;
  }

  /** The spool file, handed over: the caller keeps, places or removes it. */
  takeSpool(): string {
    const path = this.spoolPath!;
    this.spoolPath = null;
    return path;
  }

  /** Lets go of everything still held: the chunk's index, the claim on the running hash, the spool file. */
  discard(): void {
    this.recorded();
    if (this.tee && this.live) dropTee(this.live);
    this.tee = null;
    if (this.spoolPath) discardSpool(this.spoolPath);
    this.spoolPath = null;
    this.whole?.end();
    this.whole = null;
  }

  private async consume(
    ctx: ServiceContext,
    user: AuthUser,
    stream: Readable,
    options: { whole?: boolean },
  ): Promise<Received> {
    const f = this.fields;
    if (!f) {
      // The file came before the fields that place it: keep it aside until they arrive.
      const hash = createHash('sha256');
      const { path, sink } = await spool(ctx, null, stream, {
        cap: () => MAX_CHUNK_BYTES,
        hashes: [hash],
        sniff: () => null,
      });
      this.spoolPath = path;
      return { mode: 'spool', upload: null, sink, digest: hash.digest('hex') };
    }
    if (options.whole) {
      // A file_id whose one-chunk upload is in flight has no row yet: wait for its end.
      await wholeSettled(ctx, user.id, f.fileId);
      if (arrivesWhole(ctx, user.id, f)) return this.consumeWhole(ctx, user, f, stream);
    }
    let upload: UploadRow;
    try {
      upload = openUpload(ctx, user, f);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return refuse(stream, err);
    }
    if (upload.complete === 1) {
      await drain(stream);
      return { mode: 'complete', upload };
    }
    const live = (this.live = liveUpload(ctx, upload.id, upload.chunk_size));
    const sniff = f.chunk === 0 ? sniffFor(f.kind, f.chunk === f.totalChunks - 1) : undefined;
    if (chunkOf(ctx, upload.id, f.chunk)) {
      const hash = createHash('sha256');
      const sink = await sinkPart(stream, { target: null, cap: () => MAX_CHUNK_BYTES, hashes: [hash] });
      return { mode: 'compare', upload, sink, digest: hash.digest('hex') };
    }
    if (!live.inflight.has(f.chunk) && (f.chunk === 0 || live.chunkSize !== null)) {
      this.releaseIndex = holdChunk(live, f.chunk);
      const hash = f.chunkChecksum ? createHash('sha256') : null;
      this.tee = claimTee(live, f.chunk);
      const hashes = [hash, this.tee].filter((h) => h !== null);
      const cap = () => live.chunkSize ?? MAX_CHUNK_BYTES;
      const sink = await writeAt(ctx, upload.id, stream, f.chunk * (live.chunkSize ?? 0), { cap, hashes, sniff });
      return { mode: 'direct', upload, sink, digest: hash?.digest('hex') ?? null };
    }
    const hash = createHash('sha256');
    const { path, sink } = await spool(ctx, upload.id, stream, { cap: () => MAX_CHUNK_BYTES, hashes: [hash], sniff });
    this.spoolPath = path;
    return { mode: 'spool', upload, sink, digest: hash.digest('hex') };
  }

  /** The only chunk of a new upload: checked as a new upload, spooled whole and flushed. */
  private async consumeWhole(ctx: ServiceContext, user: AuthUser, f: ChunkFields, stream: Readable) {
    try {
      this.whole = beginWhole(ctx, user, f);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return refuse(stream, err);
    }
    const hash = createHash('sha256');
    const opts = { cap: () => MAX_CHUNK_BYTES, hashes: [hash], sniff: sniffFor(f.kind, true) };
    const { path, sink } = await spoolWhole(ctx, stream, opts, uploadsAreSynced());
    this.spoolPath = path;
    return { mode: 'whole' as const, whole: this.whole, sink, digest: hash.digest('hex') };
  }
}

async function refuse(stream: Readable, error: ApiError): Promise<Received> {
  await drain(stream);
  return { mode: 'refused', error };
}
