/**
 * The upload queue's chunks (Laneway's `POST /api/upload`: chunk index, total, file_id) sent as
 * Flow's offset protocol (FLOW-WIRE.md §3): chunk i goes at offset i·C with `data` = the id
 * chunk 0 got, one at a time per file (Flow appends at the held size only, so a file's chunks
 * cannot overtake one another), to `/upload`, or to `/upload/sample` when the file is a read of
 * a sample group (§4.1: the sample's fields ride on every chunk and the last read's last chunk
 * creates the sample). Resuming after a crash asks the server what it holds
 * (`GET /upload/{data}`, Laneway's extension of the wire); a server without that read answers
 * 404 and the file starts again from offset 0 (the abandoned record expires there).
 */
import type { DesktopErrorData } from '../../../../shared/errors';
import { ServiceError } from '../../../../shared/service-client/service-error';
import { collectBody, flowChunkForm, readForm } from './flow-form';
import type { FlowState, FlowUpload } from './flow-state';
import type { FlowLanes } from './flow-lanes';
import { flowError, type FlowWire } from './flow-wire';

/** What the queue knows of a file upload that Flow's wire needs at chunk time. */
export interface FlowUploadIntent {
  sample: null | {
    name: string;
    /** Laneway's metadata: `organism` and `category` become Flow's `organism` and `sample_type`. */
    metadata: Record<string, unknown>;
    project: number | null;
    /** This file is read 2 (its sample's read 1 must be uploaded before its last chunk). */
    isRead2: boolean;
    /** The last read of the sample: its last chunk creates the sample. */
    lastRead: boolean;
    /** Read 1's data id, once uploaded (read 2's `previous_data`). */
    read1: number | null;
    /** Why read 1 will not be uploaded (failed or cancelled), or null: read 2 then ends too. */
    read1Ended?: string | null;
  };
  /** A file of a lane group (§4.2): its sheet goes first, read 2 names read 1. */
  lane?: {
    /** The queued lane (its group), so that its sheet is sent once. */
    key: string;
    /** The lane's sheet (.xlsx) on this computer. */
    annotation: string;
    /** The lane's name (the server names the lane after its sheet). */
    name: string;
    ignoreWarnings: boolean;
    role: 'read1' | 'read2' | 'index';
    /** Read 1's data id, once uploaded (read 2's `reads1`). */
    read1: number | null;
    /** Why read 1 will not be uploaded (failed or cancelled), or null: read 2 then ends too. */
    read1Ended: string | null;
  };
}

export type UploadIntents = (fileId: string) => FlowUploadIntent | null;

export interface LaneAnswer {
  status: number;
  body: unknown;
}

const laneError = (status: number, code: DesktopErrorData['code'], message: string, retryable?: boolean) =>
  new ServiceError({ message, code, status, body: { error: message, code, status }, retryable });

/** Flow's lookups that turn Laneway's metadata values into Flow's identifiers (cached). */
export class FlowVocabulary {
  private organisms: Array<Record<string, string>> | null = null;
  private types: Array<Record<string, string>> | null = null;
  constructor(private readonly wire: FlowWire) {}

  async organism(value: string): Promise<string> {
    this.organisms ??= await this.wire.call<Array<Record<string, string>>>('GET', '/organisms');
    const v = value.toLowerCase();
    const hit = this.organisms.find((o) => [o.id, o.name, o.latin_name].some((x) => x?.toLowerCase() === v));
    return hit?.id ?? value;
  }

  /** An organism's Latin name (Laneway's name for it) from Flow's id, for lists that carry only the id. */
  async latinName(id: string): Promise<string | null> {
    this.organisms ??= await this.wire.call<Array<Record<string, string>>>('GET', '/organisms');
    return this.organisms.find((o) => o.id === id)?.latin_name ?? null;
  }

  async sampleType(value: string): Promise<string> {
    this.types ??= await this.wire.call<Array<Record<string, string>>>('GET', '/samples/types');
    const v = value.toLowerCase();
    return this.types.find((t) => [t.identifier, t.name].some((x) => x?.toLowerCase() === v))?.identifier ?? value;
  }
}

export class FlowUploads {
  /** Per file_id, the chunk before (Flow's offsets are strictly sequential). */
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(
    private readonly wire: FlowWire,
    private readonly state: FlowState,
    private readonly intents: UploadIntents,
    private readonly vocabulary: FlowVocabulary,
    private readonly lanes: FlowLanes,
  ) {}

  /** Bodies are read in the order the queue sent them, so that each file's chunks queue in order. */
  private reading: Promise<unknown> = Promise.resolve();

  /** `POST /api/upload`: one chunk of the queue's, in order after the file's previous one. */
  async chunk(contentType: string, raw: Uint8Array | AsyncIterable<Uint8Array>, signal?: AbortSignal) {
    const turn = this.reading.then(async () => {
      const form = readForm(contentType, await collectBody(raw));
      const fileId = form.fields.file_id ?? '';
      const previous = this.chains.get(fileId) ?? Promise.resolve();
      const mine = previous.catch(() => undefined).then(() => this.send(fileId, form.fields, form.file, signal));
      mine.catch(() => undefined); // awaited below; handled here so it is never reported unhandled
      this.chains.set(fileId, mine);
      return { fileId, mine };
    });
    this.reading = turn.catch(() => undefined);
    const { fileId, mine } = await turn;
    try {
      return await mine;
    } finally {
      if (this.chains.get(fileId) === mine) this.chains.delete(fileId);
    }
  }

  /** `GET /api/upload/{file_id}`: asks the server what it holds of the file. */
  async status(fileId: string): Promise<LaneAnswer> {
    const known = this.state.upload(fileId);
    const notFound = { status: 404, body: { error: 'No such upload', code: 'NOT_FOUND', status: 404 } };
    if (!known) return notFound;
    if (known.done) return { status: 200, body: this.statusBody(fileId, known, known.done) };
    const res = await this.wire.send('GET', `/upload/${encodeURIComponent(known.data)}`);
    if (res.status === 404) {
      this.state.setUpload(fileId, null);
      return notFound;
    }
    if (res.status !== 200) throw flowError(res.status, res.body);
    const b = res.body as { expected_file_size: number; id: string | null };
    const now: FlowUpload = { ...known, held: b.expected_file_size, done: b.id };
    this.state.setUpload(fileId, now);
    return { status: 200, body: this.statusBody(fileId, now, b.id) };
  }

  /** `DELETE /api/upload/{file_id}`: Flow has no cancel; the record expires on the server. */
  cancel(fileId: string): LaneAnswer {
    this.state.setUpload(fileId, null);
    return { status: 204, body: '' };
  }

  private statusBody(fileId: string, u: FlowUpload, done: string | null) {
    return {
      file_id: fileId,
      received_chunks: u.chunk > 0 ? Math.floor(u.held / u.chunk) : 0,
      complete: done !== null,
      data_id: done === null ? null : Number(done),
    };
  }

  private async send(
    fileId: string,
    f: Record<string, string>,
    bytes: Buffer | null,
    signal?: AbortSignal,
  ): Promise<LaneAnswer> {
    if (!bytes || !f.filename) throw laneError(400, 'VALIDATION_ERROR', 'A chunk needs a filename and a file part');
    const idx = Number(f.chunk);
    const total = Number(f.total_chunks);
    const isLast = idx === total - 1;
    const size = f.total_size === undefined ? null : Number(f.total_size);
    // Every chunk but the last is C bytes; the last ends the file.
    const offset = isLast && size !== null ? size - bytes.length : idx * bytes.length;
    let known = this.state.upload(fileId);
    if (known?.done) return this.finished(fileId, f.filename, known.done);
    if (idx === 0 && !known) known = null;
    else if (!known)
      throw laneError(409, 'UPLOAD_CONFLICT', 'The Flow server has no record of this upload: start it again');
    const held = known?.held ?? 0;
    if (offset > held)
      throw laneError(503, 'SERVICE_UNAVAILABLE', `An earlier chunk of ${f.filename} has not landed yet`, true);
    if (!isLast && offset + bytes.length <= held) return this.ack(fileId, idx, total);

    const extra = await this.extraFields(fileId, f.filename, isLast, !known, signal);
    const form = flowChunkForm({ filename: f.filename, offset, isLast, data: known?.data ?? '', bytes }, extra.fields);
    const res = await this.wire.send('POST', extra.endpoint, { form, signal });
    if (res.status !== 200) {
      const body = (res.body ?? {}) as Record<string, unknown>;
      if (res.status === 409 && body.data_id !== undefined)
        throw flowError(409, { ...body, data_id: Number(body.data_id) }, 'DUPLICATE_FILE');
      throw flowError(res.status, res.body);
    }
    const answer = res.body as { id?: string; data_id?: string; sample_id?: string | null };
    // The upload's id stays what chunk 0 got; the last chunk answers the finished record's id.
    const data = known?.data ?? String(answer.data_id ?? answer.id ?? '');
    const upload: FlowUpload = {
      data,
      chunk: known?.chunk || bytes.length,
      held: offset + bytes.length,
      done: null,
    };
    if (!isLast) {
      this.state.setUpload(fileId, upload);
      return this.ack(fileId, idx, total);
    }
    const id = String(answer.id ?? data);
    this.state.setUpload(fileId, { ...upload, done: id });
    if (answer.sample_id) this.state.setSample(String(extra.read1 ?? id), String(answer.sample_id));
    return this.finished(fileId, f.filename, id);
  }

  private ack(fileId: string, idx: number, total: number): LaneAnswer {
    return { status: 200, body: { file_id: fileId, received: idx + 1, total_chunks: total } };
  }

  private finished(fileId: string, filename: string, id: string): LaneAnswer {
    return { status: 200, body: { id: Number(id), filename, file_id: fileId } };
  }

  /** The endpoint and its fields (§4.1 for a sample's reads, §4.2 for a lane's). */
  private async extraFields(fileId: string, filename: string, isLast: boolean, first: boolean, signal?: AbortSignal) {
    const lane = this.intents(fileId)?.lane;
    if (lane) return this.laneFields(filename, lane, first, signal);
    const intent = this.intents(fileId)?.sample ?? null;
    if (!intent) return { endpoint: '/upload', fields: {}, read1: null };
    if (intent.isRead2 && intent.read1Ended)
      throw laneError(400, 'VALIDATION_ERROR', `Read 1 of this sample was not uploaded: ${intent.read1Ended}`, false);
    if (intent.isRead2 && isLast && intent.read1 === null)
      throw laneError(503, 'SERVICE_UNAVAILABLE', 'Read 2 waits for read 1 to finish uploading', true);
    const fields: Record<string, string | string[]> = {
      is_last_sample: intent.lastRead ? 'true' : 'false',
      sample_name: intent.name,
    };
    if (intent.isRead2 && intent.read1 !== null) fields.previous_data = [String(intent.read1)];
    for (const [key, value] of Object.entries(intent.metadata)) {
      if (value === null || value === undefined || value === '') continue;
      if (key === 'category') fields.sample_type = await this.vocabulary.sampleType(String(value));
      else if (key === 'organism') fields.organism = await this.vocabulary.organism(String(value));
      else fields[key] = String(value);
    }
    if (intent.project !== null) fields.project = String(intent.project);
    return { endpoint: '/upload/sample', fields, read1: intent.isRead2 ? intent.read1 : null };
  }

  /**
   * A lane's file: the sheet goes up before read 1's first chunk; read 2 carries read 1's id on
   * every chunk (the queue sends read 2 once read 1 is in). Flow takes no index read files.
   */
  private async laneFields(
    filename: string,
    lane: NonNullable<FlowUploadIntent['lane']>,
    first: boolean,
    signal?: AbortSignal,
  ): Promise<{ endpoint: string; fields: Record<string, string | string[]>; read1: null }> {
    if (lane.role === 'index')
      throw laneError(400, 'VALIDATION_ERROR', 'Index read files (I1/I2) are not offered by a Flow server', false);
    if (lane.role === 'read1') {
      if (first)
        await this.lanes.ensureSheet(
          lane.key,
          { path: lane.annotation, lane: lane.name, read1: filename },
          lane.ignoreWarnings,
          signal,
        );
      return { endpoint: '/upload/multiplexed', fields: {}, read1: null };
    }
    // The queue starts read 2 only once read 1 has ended (queue-queries.ts), so read 1's id is
    // known here; a read 2 sent otherwise is refused at once, holding no place while it waits.
    if (lane.read1Ended)
      throw laneError(400, 'VALIDATION_ERROR', `Read 1 of this lane was not uploaded: ${lane.read1Ended}`, false);
    const read1 = lane.read1;
    if (read1 === null)
      throw laneError(503, 'SERVICE_UNAVAILABLE', 'Read 2 waits for read 1 to finish uploading', true);
    return { endpoint: '/upload/multiplexed', fields: { reads1: String(read1) }, read1: null };
  }
}
