/**
 * Runs one upload job to an outcome: resumes from what the journal and the service
 * (`GET /api/upload/{file_id}`) say is there, reads the source chunk by chunk while hashing
 * it, sends each missing chunk and journals each acknowledged one. It never decides about
 * retries, and writes no outcome: the queue applies it (job-outcome.ts), completion included.
 */
import { createHash, type Hash } from 'node:crypto';
import type { DesktopErrorData } from '../../../shared/errors';
import type { WaitingReason } from '../../../shared/desktop-api/contract';
import type { ServiceClient } from '../service-client/service-client';
import type { EndpointAnswer } from '../../../shared/service-client/service-http';
import { chunkCount, multipart, uploadChunkFields } from '../../../shared/service-client/multipart';
import { errorFromResponse, ServiceError, serviceReason } from '../../../shared/service-client/service-error';
import type { BandwidthLimiter } from './bandwidth';
import type { JobRow, JobStore } from './job-store';
import { multipartBody } from './multipart';
import { GzipCheck } from './gzip-check';
import { SendWindow, type Ticket } from './send-window';
import { readSourceRange, readWholeSources, sourceSizes, statSources, type SourceStat } from './source-file';
import { getDataById, getUploadByFileId, postUpload } from '../../../shared/service-api/endpoints';

/** Files up to this size are hashed before sending (the queue's default). */
export const PRE_HASH_LIMIT = 16 * 1024 * 1024;

export type RunOutcome =
  | { kind: 'completed'; dataId: number; deduplicated: boolean; checksum: string }
  | { kind: 'failed'; message: string }
  | { kind: 'retry'; reason: WaitingReason; error: DesktopErrorData }
  | { kind: 'restart'; reason: string }
  | { kind: 'aborted' };

export interface RunnerDeps {
  store: JobStore;
  client: ServiceClient;
  limiter: BandwidthLimiter;
  signal: AbortSignal;
  /** Files up to this size are hashed before sending, so `checksum` goes with the first chunk. */
  preHashLimit: number;
  /** The window of chunks in flight shared by the queue's jobs (sized to the link). */
  window?: SendWindow;
  /** Without a shared window: chunks of this job in flight at once (default 3). */
  chunkWindow?: number;
  /** Bytes that reached the service (`network` false: found there on resume, not sent now). */
  onBytes(n: number, network?: boolean): void;
  onState(state: 'hashing' | 'uploading'): void;
  /**
   * The sources' stat the scheduler read as it launched a job whose row had no size, and wrote
   * on the row with its state: the job is fresh, and its sources need no second stat.
   */
  launchedWith?: SourceStat;
  /** The job's requests wait for an access-token refresh (true) or have their token (false). */
  onTokenWait?(waiting: boolean): void;
}

/** The chunks GET /api/upload/{file_id} names; another service of the spec may give them as a count. */
function receivedChunks(received: number[] | number): number[] {
  return Array.isArray(received) ? received : Array.from({ length: received }, (_, i) => i);
}

const sha256 = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');

/**
 * Bodies up to this size go as one buffer when no bandwidth limit paces them (multipart.ts). The
 * buffer is a copy of the file's bytes: with up to 64 small files in flight, 1 MB files sent so
 * took the link benchmark's queue of 200 of them to 249 MB (218 MB streamed); files of 100 KB gain the most.
 */
const WHOLE_BODY = 256 * 1024;

/** Hashing done between turns of the event loop, at most this many bytes at a time. */
const HASH_TURN = 1024 * 1024;

/**
 * Feeds a chunk to the file's running sha256, a slice per turn of the event loop (hashing 8 MiB
 * in one go, about 5 ms, held the sockets of the chunks in flight, issue 21), and answers the
 * chunk's fingerprint for the journal: the sha256 of the file from its start to the chunk's end.
 * A resumed job reads every chunk again in order, so a changed byte anywhere up to a journalled
 * chunk changes that chunk's fingerprint. A sha256 of each chunk on its own hashed every byte a
 * second time: 3 of a 2 GiB upload's 6.4 s on the client's thread.
 */
async function hashInTurns(bytes: Buffer, file: Hash): Promise<string> {
  for (let at = 0; at < bytes.length; at += HASH_TURN) {
    if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    file.update(bytes.subarray(at, Math.min(at + HASH_TURN, bytes.length)));
  }
  return file.copy().digest('hex');
}

class Restart extends Error {}

/** Runs a job; every failure becomes an outcome, never a throw. */
export async function runJob(row: JobRow, deps: RunnerDeps): Promise<RunOutcome> {
  try {
    return await attempt(row, deps);
  } catch (err) {
    if (deps.signal.aborted) return { kind: 'aborted' };
    if (err instanceof Restart) return { kind: 'restart', reason: err.message };
    if (err instanceof ServiceError) return classify(err.data, err.status);
    const code = (err as NodeJS.ErrnoException)?.code;
    if (code === 'ENOENT') return { kind: 'failed', message: `The source file is gone: ${(err as Error).message}` };
    if (code === 'EACCES' || code === 'EPERM')
      return { kind: 'failed', message: `The source file cannot be read: ${(err as Error).message}` };
    return { kind: 'failed', message: (err as Error)?.message ?? String(err) };
  }
}

/** Maps a service or network error to what the queue should do. */
export function classify(data: DesktopErrorData, status: number | null): RunOutcome {
  if (status === null || data.code === 'NETWORK') return { kind: 'retry', reason: 'offline', error: data };
  if (data.code === 'NOT_SIGNED_IN' || status === 401) return { kind: 'retry', reason: 'not-signed-in', error: data };
  if (data.code === 'UPLOAD_CONFLICT') return { kind: 'restart', reason: data.message };
  if (data.code === 'CHECKSUM_MISMATCH')
    return { kind: 'restart', reason: `The service saw other bytes than were read (${data.message})` };
  if (data.retryable) return { kind: 'retry', reason: 'service-unavailable', error: data };
  return { kind: 'failed', message: serviceReason(data) };
}

async function hashAll(
  sources: string[],
  sizes: number[],
  size: number,
  chunk: number,
  signal: AbortSignal,
): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < size; at += chunk) {
    if (signal.aborted) throw new Error('aborted');
    hash.update(await readSourceRange(sources, sizes, at, Math.min(chunk, size - at)));
  }
  return hash.digest('hex');
}

async function attempt(initial: JobRow, deps: RunnerDeps): Promise<RunOutcome> {
  const { store } = deps;
  // Every request of the job reports a wait on the token refresh (waiting reason token-refresh).
  const onTokenWait = deps.onTokenWait;
  const withWait = <A extends object>(args: A): A => (onTokenWait ? { ...args, onTokenWait } : args);
  const client = deps.client;
  const sources = JSON.parse(initial.sources) as string[];
  const launched = deps.launchedWith;
  const st = launched ?? (await statSources(sources));
  let row = initial;
  // A job whose size is not recorded yet has never sent a byte under this file_id (size is set
  // before the first request and cleared with a new file_id): no need to ask the service.
  const fresh = launched !== undefined || row.size === null;
  // What the job's row learns before the first request, written at once: each write of the
  // queue's database is a commit, and a small file paid five of them (issue 21).
  let facts: Partial<JobRow> = {};
  if (launched) {
    // Written with the launch's state already.
  } else if (row.size === null || row.mtime_ms === null) {
    facts = { size: st.size, mtime_ms: st.mtimeMs };
  } else if (row.size !== st.size || row.mtime_ms !== st.mtimeMs) {
    throw new Restart('The source file changed (size or modification time) during upload');
  }
  const size = st.size;
  // The service refuses an empty file with its field rule (total_size at least 1); a person
  // needs the file named and the plain reason.
  if (size === 0)
    return {
      kind: 'failed',
      message: `${sources.length === 1 ? sources[0] : row.filename} is empty (0 bytes): there is nothing to upload`,
    };
  const sizes = sources.length === 1 ? [size] : await sourceSizes(sources);
  const chunkSize = row.chunk_size;
  const total = chunkCount(size, chunkSize);

  // The same bytes uploaded before on this profile are never sent again.
  let upFront = store.knownChecksum(row.sources, size, st.mtimeMs);
  let whole: Buffer | null = null;
  if (!upFront && size <= deps.preHashLimit) {
    if (size <= chunkSize) {
      // One read, hashed as it is sent: no "hashing" state to show for it. The handle's stat
      // after the read stands for the re-check by path that `finish` makes of other files.
      const read = await readWholeSources(sources, sizes, size);
      if (read.stat.size !== st.size || read.stat.mtimeMs !== st.mtimeMs)
        throw new Restart('The source file changed (size or modification time) during upload');
      whole = read.bytes;
      upFront = sha256(whole);
    } else {
      row = store.update(row.id, facts);
      facts = {};
      deps.onState('hashing');
      upFront = await hashAll(sources, sizes, size, chunkSize, deps.signal);
    }
  }
  // A file read whole here keeps its checksum in memory: the completion writes it (a crash
  // before then hashes the file again on resume), so a small file's row is written only at
  // launch and at its end.
  if (upFront && !whole) facts.checksum = upFront;
  if (Object.keys(facts).length) row = store.update(row.id, facts);
  if (upFront) {
    const known = store.dataIdFor(row.profile_id, upFront);
    if (known !== null) {
      const probe = await client.send(getDataById, withWait({ params: { id: known } }));
      if (probe.status === 200) return { kind: 'completed', dataId: known, deduplicated: true, checksum: upFront };
      store.forgetDataId(row.profile_id, upFront);
    }
  }

  const journal = store.journal(row.id);
  const status = fresh
    ? ({ ok: false, status: 404, body: null } as const)
    : await client.send(getUploadByFileId, withWait({ params: { file_id: row.file_id } }));
  let onService = new Set<number>();
  if (status.ok) {
    const body = status.body;
    if (body.complete && body.data_id !== null) {
      const checksum = upFront ?? (await hashAll(sources, sizes, size, chunkSize, deps.signal));
      return finish(row, deps, checksum, { id: body.data_id }, false);
    }
    onService = new Set(receivedChunks(body.received_chunks));
  } else if (status.status === 404) {
    // The service holds nothing under this id (expired or never arrived): the journal is stale.
    if (journal.size) store.forgetJournal(row.id);
    journal.clear();
  } else {
    throw errorFromResponse(status.status, status.body);
  }

  deps.onState('uploading');
  const hash = createHash('sha256');
  // The chunks in flight share the queue's window (sized to the link); without one, a fixed
  // window of `chunkWindow` chunks. Reading and hashing the next chunk overlaps those in flight.
  const window = deps.window ?? fixedWindow(deps.chunkWindow ?? 3, chunkSize);
  let fileDigest = upFront;
  let ended: RunOutcome | null = null;
  let failure: unknown = null;
  const inflight = new Set<Promise<void>>();

  const sendChunk = async (
    idx: number,
    bytes: Buffer,
    chunkSha: string,
    checksum: string | null,
    ticket: Ticket,
  ): Promise<RunOutcome | null> => {
    const fields = uploadChunkFields({
      filename: row.filename,
      chunk: idx,
      totalChunks: total,
      fileId: row.file_id,
      totalSize: size,
      checksum,
    });
    const body = multipartBody(multipart(fields, [{ field: 'file', filename: row.filename, content: bytes }]));
    // Progress counts a chunk once the service acknowledged it, never bytes merely written to
    // the socket: chunks in flight would otherwise show as uploaded (issue 16).
    let res: EndpointAnswer<typeof postUpload, unknown>;
    try {
      res = await client.send(
        postUpload,
        withWait({
          headers: { 'content-type': body.contentType, 'content-length': String(body.length) },
          raw: () =>
            deps.limiter.limited()
              ? body.stream(undefined, (n) => deps.limiter.take(n))
              : body.length <= WHOLE_BODY
                ? body.bytes()
                : body.stream(),
          signal: deps.signal,
        }),
      );
    } catch (err) {
      // A chunk lost on the network says the link is overloaded; an abort says nothing.
      if (deps.signal.aborted) window.release(ticket);
      else window.congested(ticket);
      throw err;
    }
    if (!res.ok) {
      if (res.status === 429 || res.status >= 500) window.congested(ticket);
      else window.release(ticket);
      const refused = errorFromResponse(res.status, res.body);
      if (refused.code === 'DUPLICATE_FILE') {
        const dataId = refused.dataId;
        if (dataId !== null) {
          const digest = checksum ?? fileDigest ?? (await hashAll(sources, sizes, size, chunkSize, deps.signal));
          return finish(row, deps, digest, { id: dataId }, true, whole !== null);
        }
      }
      throw refused;
    }
    window.ack(ticket);
    const answer = res.body;
    onService.add(idx);
    // A file of one chunk answered with its record needs no journal row: the job completes
    // now, and a crash before that asks the service, which answers complete. Each small file
    // paid a commit of the queue's database for it (issue 21).
    if (total > 1 || !('id' in answer)) store.recordChunk(row.id, idx, chunkSha, bytes.length);
    deps.onBytes(bytes.length);
    // The last chunk is answered with the data record, the others with an acknowledgement.
    if ('id' in answer) {
      const digest = checksum ?? fileDigest ?? (await hashAll(sources, sizes, size, chunkSize, deps.signal));
      if (answer.checksum && answer.checksum !== digest)
        throw new Restart(`The service stored checksum ${answer.checksum}, the file read as ${digest}`);
      return finish(row, deps, digest, { id: answer.id }, false, whole !== null);
    }
    return null;
  };

  // Chunk buffers whose sends have settled, read into again: a fresh 8 MiB buffer per chunk
  // left the collector behind and a 2 GiB upload's client past 300 MB (issue 21).
  const spare: Buffer[] = [];
  const capacity = Math.max(1, Math.min(chunkSize, size));
  const giveBack = (bytes: Buffer) => {
    if (!whole && spare.length < 4) spare.push(Buffer.from(bytes.buffer, bytes.byteOffset, capacity));
  };
  // A .gz file goes through gzip as it is read: cut short or damaged, it fails before its last
  // chunk is sent, so the service never records it (gzip-check.ts).
  const gzip = row.filename.toLowerCase().endsWith('.gz') ? new GzipCheck(row.filename, sources, sizes) : null;
  let gzipFed: Promise<void> = Promise.resolve();
  // A buffer goes back to the spares once gzip has read it too.
  const release = (bytes: Buffer, fed: Promise<void> | null) =>
    fed ? void fed.then(() => giveBack(bytes)) : giveBack(bytes);
  try {
    for (let idx = 0; idx < total && !ended && !failure; idx++) {
      if (deps.signal.aborted) return { kind: 'aborted' };
      const offset = idx * chunkSize;
      const length = Math.max(0, Math.min(chunkSize, size - offset));
      // A file of one chunk was read whole to hash it: its bytes and hash serve as they are.
      const bytes =
        whole ??
        (await readSourceRange(sources, sizes, offset, length, spare.pop() ?? Buffer.allocUnsafeSlow(capacity)));
      // gzip reads this chunk while it is hashed and sent, at most one chunk behind (memory
      // stays bounded): inflating was the slowest step, and waiting on it first made a .gz
      // upload on loopback the sum of both (110 MB/s against 185 for the inflating alone).
      let fed: Promise<void> | null = null;
      if (gzip) {
        const behind = gzipFed;
        fed = gzipFed = gzip.feed(bytes);
        await behind;
        const problem = gzip.problem ?? (idx === total - 1 ? await gzip.finish() : null);
        if (problem) return { kind: 'failed', message: problem };
      }
      // A file read whole is its only chunk: its checksum is the file's so far.
      const chunkSha = whole && upFront ? upFront : await hashInTurns(bytes, hash);
      const journaled = journal.get(idx);
      if (journaled && journaled.sha256 !== chunkSha)
        throw new Restart('The source file changed (content) during upload');
      const isLast = idx === total - 1;
      if (isLast && !whole) fileDigest ??= hash.digest('hex');
      if (onService.has(idx)) {
        if (!journaled) store.recordChunk(row.id, idx, chunkSha, length);
        deps.onBytes(length, false);
        release(bytes, fed);
        continue;
      }
      const ticket = await window.acquire(row.id, length, deps.signal);
      if (ended || failure) {
        window.release(ticket);
        break;
      }
      const pending: Promise<void> = sendChunk(idx, bytes, chunkSha, upFront ?? (isLast ? fileDigest : null), ticket)
        .then(
          (done) => void (done && (ended ??= done)),
          (err: unknown) => void (failure ??= err),
        )
        .finally(() => {
          inflight.delete(pending);
          // Answered: the request's body has been read to its end (or the request failed).
          release(bytes, fed);
        });
      inflight.add(pending);
    }
  } finally {
    // On a throw, let what is still in flight settle before the job is retried.
    await Promise.allSettled([...inflight]);
    gzip?.destroy();
  }
  if (failure) throw failure;
  if (ended) return ended;
  // Every chunk is on the service but none answered with the record: ask once more.
  const after = await client.send(getUploadByFileId, withWait({ params: { file_id: row.file_id } }));
  if (after.ok && after.body.complete && after.body.data_id !== null) {
    return finish(
      row,
      deps,
      upFront ?? (await hashAll(sources, sizes, size, chunkSize, deps.signal)),
      { id: after.body.data_id },
      false,
    );
  }
  throw new Restart('The service did not assemble the file after its last chunk');
}

/** A window of a fixed number of chunks, for a job run on its own. */
function fixedWindow(chunks: number, chunkSize: number): SendWindow {
  const bytes = Math.max(1, chunks) * chunkSize;
  return new SendWindow({ initialBytes: bytes, minBytes: bytes, maxBytes: bytes, minSmallChunks: 0 });
}

async function finish(
  row: JobRow,
  deps: RunnerDeps,
  checksum: string,
  record: { id: number },
  deduplicated: boolean,
  readWhole = false,
): Promise<RunOutcome> {
  // Read whole in one pass and checked on its handle right after (readWholeSources): what was
  // sent is what the file held.
  if (readWhole) return { kind: 'completed', dataId: record.id, deduplicated, checksum };
  // Re-check the source: a file that changed after its last chunk was read is not what we sent.
  const st = await statSources(JSON.parse(row.sources) as string[]);
  const current = deps.store.job(row.id)!;
  if (current.size !== st.size || current.mtime_ms !== st.mtimeMs)
    throw new Restart('The source file changed during upload');
  return { kind: 'completed', dataId: record.id, deduplicated, checksum };
}
