/**
 * A lane on a Flow server (FLOW-WIRE.md §4.2): Flow has no lane request, only a sheet then its
 * reads. Before read 1's first chunk the lane's sheet goes to `/upload/annotation` (offset
 * chunks; Flow's `validation` and `warnings` verdicts become the queue's INVALID_ANNOTATION and
 * ANNOTATION_WARNINGS refusals, `ignore_warnings` when the person accepted them); the reads then
 * go to `/upload/multiplexed`, read 2 with `reads1` on every chunk (so it starts once read 1 is
 * in), and the server links them to the sheet and demultiplexes. The queue's "create the lane"
 * is then a record kept here (by read 1's id), and the lane's state is read back from Flow: its
 * samples are the sheet's names as they appear in Flow's sample search.
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { BARCODE, namedColumn, SAMPLE_NAME } from '../../../../shared/annotation';
import { ServiceError } from '../../../../shared/service-client/service-error';
import {
  annotationTable,
  gridOfDelimited,
  readDelimitedFile,
  workbookAnnotationTable,
  XlsxWorkbook,
} from '../../../../shared/sheets';
import { collectBody, flowChunkForm, readForm } from './flow-form';
import type { FlowState } from './flow-state';
import { flowError, laneBody, type FlowWire } from './flow-wire';

type Answer = { status: number; body: unknown };
type Issue = { row?: number; message?: string };

/** Sheets are small; they go up in chunks of this size. */
const SHEET_CHUNK = 1024 * 1024;

/** A lane sheet (.xlsx, or CSV/TSV) as the service reads sheets. */
async function sheetTable(bytes: Uint8Array) {
  const inflate = (data: Uint8Array, max: number) => inflateRawSync(data, { maxOutputLength: Math.max(1, max) });
  const zip = bytes.length >= 4 && Buffer.from(bytes.subarray(0, 4)).readUInt32LE(0) === 0x04034b50;
  return zip
    ? (await workbookAnnotationTable(await XlsxWorkbook.open(bytes, inflate))).table
    : annotationTable('csv', gridOfDelimited(readDelimitedFile(bytes).rows));
}

/** The samples (name and barcode) a lane sheet lists, in order. */
export async function sheetSamples(bytes: Uint8Array): Promise<Array<{ name: string; barcode: string }>> {
  const table = await sheetTable(bytes);
  const header = table.headers.find((h) => namedColumn(h) === SAMPLE_NAME);
  const barcode = table.headers.find((h) => namedColumn(h) === BARCODE);
  if (!header) return [];
  return table.rows
    .map((r) => ({ name: (r.values[header] ?? '').trim(), barcode: barcode ? (r.values[barcode] ?? '').trim() : '' }))
    .filter((x) => x.name);
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * The sheet as a Flow server links it to its reads (FLOW-WIRE.md §4.2): Flow matches a
 * multiplexed upload to the sheet whose `File` cells name the reads file, and Laneway's sheets
 * have no such column. A sheet without one goes as CSV with `File` naming read 1 on every row;
 * a sheet that has one goes as it is (null).
 */
export async function sheetForFlow(bytes: Uint8Array, read1: string): Promise<Buffer | null> {
  const table = await sheetTable(bytes);
  if (table.headers.some((h) => h.trim().toLowerCase() === 'file')) return null;
  const lines = [[...table.headers, 'File'].map(csvCell).join(',')];
  for (const r of table.rows)
    lines.push([...table.headers.map((h) => r.values[h] ?? ''), read1].map(csvCell).join(','));
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

const refusal = (status: number, code: 'INVALID_ANNOTATION' | 'ANNOTATION_WARNINGS', issues: Issue[]) => {
  const listed = issues.map((i) => `row ${i.row ?? '?'}: ${i.message ?? ''}`).join('; ');
  const message =
    code === 'INVALID_ANNOTATION'
      ? `The Flow server refused the lane's sheet: ${listed}`
      : `The Flow server warns about the lane's sheet: ${listed}; submit again with ignore_warnings to accept them`;
  const key = code === 'INVALID_ANNOTATION' ? 'rows' : 'warnings';
  const body = { error: message, code, status, details: { [key]: issues }, [key]: issues };
  return new ServiceError({ message, code, status, body, retryable: false });
};

export class FlowLanes {
  constructor(
    private readonly wire: FlowWire,
    private readonly state: FlowState,
  ) {}

  /** Sends the lane's sheet to `/upload/annotation` once (per queued lane); answers its Flow id. */
  async ensureSheet(
    key: string,
    sheet: { path: string; lane: string; read1: string },
    ignoreWarnings: boolean,
    signal?: AbortSignal,
  ): Promise<string> {
    const known = this.state.sheet(key);
    if (known) return known;
    const own = readFileSync(sheet.path);
    const withFile = await sheetForFlow(own, sheet.read1);
    const bytes = withFile ?? own;
    // The server names the lane after its sheet: the lane's own name (Flow refuses spaces in names).
    const ext = withFile || /\.csv$/i.test(sheet.path) ? '.csv' : '.xlsx';
    const filename = `${sheet.lane.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120) || 'lane'}${ext}`;
    let data = '';
    let answer: unknown = null;
    for (let offset = 0; offset < bytes.length || offset === 0; offset += SHEET_CHUNK) {
      const chunk = bytes.subarray(offset, offset + SHEET_CHUNK);
      const isLast = offset + chunk.length >= bytes.length;
      const form = flowChunkForm(
        { filename, offset, isLast, data, bytes: Buffer.from(chunk) },
        ignoreWarnings ? { ignore_warnings: 'true' } : {},
      );
      const res = await this.wire.send('POST', '/upload/annotation', { form, signal });
      const body = (res.body ?? {}) as { id?: string; data_id?: string; validation?: Issue[]; warnings?: Issue[] };
      if (res.status === 400 && Array.isArray(body.validation) && !('error' in body))
        throw refusal(400, 'INVALID_ANNOTATION', body.validation);
      if (res.status === 400 && Array.isArray(body.warnings) && !('error' in body))
        throw refusal(409, 'ANNOTATION_WARNINGS', body.warnings);
      if (res.status !== 200) throw flowError(res.status, res.body);
      data ||= String(body.data_id ?? body.id ?? '');
      answer = body;
      if (isLast) break;
    }
    const id = String((answer as { id?: string }).id ?? data);
    this.state.setSheet(key, id);
    return id;
  }

  /**
   * `POST /api/upload/multiplexed` from the queue once the lane's reads are in: on Flow the lane
   * was made by the server from the sheet and the reads; this keeps its record.
   */
  async created(contentType: string, raw: Uint8Array | AsyncIterable<Uint8Array>) {
    const { fields, file } = readForm(contentType, await collectBody(raw));
    const read1 = fields.file_data_id ?? '';
    if (!/^\d+$/.test(read1)) return { status: 400, body: laneBody(400, { error: 'The lane has no read 1' }) };
    const existing = this.state.lane(read1);
    const samples = existing?.samples ?? (file ? await sheetSamples(file).catch(() => []) : []);
    const lane = {
      name: fields.name ?? `Lane ${read1}`,
      read2: fields.file2_data_id ?? null,
      samples,
      created: existing?.created ?? new Date().toISOString(),
    };
    this.state.setLane(read1, lane);
    return this.lane(read1);
  }

  /** `GET /api/lanes/{id}`: demultiplexing until every sheet sample is on the server. */
  async lane(id: string): Promise<Answer> {
    const lane = this.state.lane(id);
    if (!lane)
      return { status: 404, body: laneBody(404, { error: 'No lane of this app with that id on the Flow server' }) };
    const found = new Map<string, number>();
    for (const { name } of lane.samples) {
      const res = await this.wire.send('GET', `/samples/search?name=${encodeURIComponent(name)}&count=100`);
      if (res.status !== 200) throw flowError(res.status, res.body);
      const hit = (res.body as { samples: Array<{ id: string; name: string }> }).samples.find((s) => s.name === name);
      if (hit) found.set(name, Number(hit.id));
    }
    const done = lane.samples.length > 0 && found.size === lane.samples.length;
    return {
      status: 200,
      body: {
        id: Number(id),
        name: lane.name,
        status: done ? 'complete' : 'demultiplexing',
        progress: lane.samples.length ? found.size / lane.samples.length : 0,
        read1: Number(id),
        read2: lane.read2 === null ? null : Number(lane.read2),
        paired: lane.read2 !== null,
        // Flow reports no reads per sample and no demultiplexing report: those stay unknown.
        samples: lane.samples.map(({ name, barcode }) => ({
          name,
          barcode,
          sample_id: found.get(name) ?? null,
          reads: null,
        })),
        warnings: [],
        total_reads: null,
        undetermined_reads: null,
        report: null,
        created: lane.created,
      },
    };
  }

  /** `GET /api/lanes`: the lanes this app sent, newest first. */
  async lanes(q: URLSearchParams): Promise<Answer> {
    const perPage = Math.max(1, Math.min(100, Number(q.get('per_page') ?? 25) || 25));
    const page = Math.max(1, Number(q.get('page') ?? 1) || 1);
    const all = this.state.lanes();
    const items = all.slice((page - 1) * perPage, page * perPage).map((l) => ({
      id: Number(l.read1),
      name: l.name,
      status: 'demultiplexing',
      progress: 0,
      read1: Number(l.read1),
      samples: [],
      warnings: [],
    }));
    return { status: 200, body: { count: all.length, page, per_page: perPage, items } };
  }
}
