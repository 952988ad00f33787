/**
 * Creating a lane: the sheet is read and validated (errors answer INVALID_ANNOTATION, warnings
 * ANNOTATION_WARNINGS unless the technician accepted them), the reads become data records (or
 * are data already uploaded in chunks), and demultiplexing starts in the background.
 */
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { getDataRow } from '../data/data.store';
import { dataFilePath } from '../data/data.commands';
import { parseMismatches, type BarcodeSource } from '../tools/demux/index';
import { MAX_MISMATCHES, parseLayoutOption } from '../../shared/annotation/index';
import { ApiError, errors } from '../http/api-error';
import { formFields } from '../http/form-fields';
import { LaneUploadFields } from '../../shared/service-api/lanes';
import type { AuthUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import { annotationVocabulary, loadVocabularies } from '../vocabularies/vocabularies';
import type { LaneForm, ReceivedFile } from './lane-form';
import { startLane } from './lane-runner';
import { readCheckedSheet } from './sheet-check';
import { recordOfReceived } from './received-record';
import { repeatedFiles } from '../../shared/pipelines/demux-parameters';

/** The lane form's read parts as a technician names them. */
const READ_LABELS: Record<string, string> = {
  file: 'read 1 (file)',
  file2: 'read 2 (file2)',
  index1: 'index read 1 (index1)',
  index2: 'index read 2 (index2)',
};
import { insertLane, laneById, namesInUse, pendingLaneNames, type LaneRow } from './lanes.store';

interface LaneOptions {
  name: string;
  /** One count for every segment, or one per segment (i7,i5 or 5',3'). */
  mismatches: number[] | undefined;
  layout: string | undefined;
  source: BarcodeSource;
  barcodeRead: 1 | 2;
  adapter: string | undefined;
  ignoreWarnings: boolean;
}

/** The lane's fields: their shape checked by the API's schema, then what a schema cannot say. */
function parseOptions(raw: Record<string, string>): LaneOptions {
  const fields = formFields(LaneUploadFields, raw, 'Invalid lane fields');
  const bad: Record<string, string> = {};
  const name = fields.name.trim();
  if (!name) bad.name = 'required, at most 200 characters';
  let mismatches: number[] | undefined;
  if (fields.mismatches !== undefined && fields.mismatches !== '') {
    mismatches = parseMismatches(fields.mismatches) ?? undefined;
    if (!mismatches || mismatches.some((m) => m > MAX_MISMATCHES)) {
      bad.mismatches = `0 to ${MAX_MISMATCHES}, or one count per index or end like 1,0`;
    }
  }
  const layout = fields.layout?.trim().toUpperCase() || undefined;
  if (layout && (layout.length > 200 || !parseLayoutOption(layout))) {
    bad.layout = "N for UMI bases around X for barcode bases: NNNXXXXXXNN (5'), ...XXXXXXNNNN (3') or both";
  }
  const source: BarcodeSource = fields.barcode_source || 'auto';
  const adapter = fields.adapter?.trim().toUpperCase() || undefined;
  const flag = (fields.ignore_warnings ?? 'false').toLowerCase();
  if (Object.keys(bad).length) throw errors.validation(bad, 'Invalid lane fields');
  return {
    name,
    mismatches,
    layout,
    source,
    barcodeRead: fields.barcode_read === '2' ? 2 : 1,
    adapter,
    ignoreWarnings: flag === 'true' || flag === '1',
  };
}

/** Where one read of the lane is on disk (an uploaded part, or a FASTQ data record the caller can see). */
function readPath(
  ctx: ServiceContext,
  user: AuthUser,
  field: string,
  file: ReceivedFile | null,
  dataId: string | undefined,
): string | undefined {
  if (file && dataId) throw errors.validation({ [field]: 'send the file or a data id, not both' });
  if (file) return file.path;
  if (dataId === undefined) return undefined;
  const id = Number(dataId);
  if (!Number.isSafeInteger(id) || id < 1) throw errors.validation({ [`${field}_data_id`]: 'must be a data id' });
  requireAccess(ctx.db, 'data', id, user, 'view');
  if (getDataRow(ctx, id)!.data_type !== 'fastq') {
    throw errors.validation({ [`${field}_data_id`]: `data ${id} is not FASTQ` });
  }
  return dataFilePath(ctx, id);
}

/** The data id of one read of the lane: an uploaded part, or a data id the caller can see. */
function readData(
  ctx: ServiceContext,
  user: AuthUser,
  field: string,
  file: ReceivedFile | null,
  dataId: string | undefined,
): number | null {
  if (file && dataId) throw errors.validation({ [field]: 'send the file or a data id, not both' });
  if (dataId !== undefined) {
    const id = Number(dataId);
    if (!Number.isSafeInteger(id) || id < 1) throw errors.validation({ [`${field}_data_id`]: 'must be a data id' });
    requireAccess(ctx.db, 'data', id, user, 'view');
    const row = getDataRow(ctx, id)!;
    if (row.data_type !== 'fastq') throw errors.validation({ [`${field}_data_id`]: `data ${id} is not FASTQ` });
    return id;
  }
  if (!file) return null;
  // The same reads already stored for this caller are reused, not stored twice.
  return recordOfReceived(ctx, user, file, { lane_upload: true }).id;
}

/** One warning per sheet row whose sample name the caller already has (or is making) on the service. */
export function reusedSampleNames(
  ctx: ServiceContext,
  user: AuthUser,
  samples: ReadonlyArray<{ name: string; row?: number }>,
): Array<{ row: number; column: string; message: string }> {
  const names = samples.map((x) => x.name);
  return reusedNameWarnings(namesInUse(ctx, user, names), pendingLaneNames(ctx, user.id, names), samples);
}

function reusedNameWarnings(
  used: Map<string, number>,
  pending: Map<string, number>,
  samples: ReadonlyArray<{ name: string; row?: number }>,
): Array<{ row: number; column: string; message: string }> {
  return samples.flatMap((x) => {
    const where = used.has(x.name)
      ? `is already a sample on the service (sample ${used.get(x.name)})`
      : pending.has(x.name)
        ? `is already a sample on the service (of lane ${pending.get(x.name)}, still being demultiplexed)`
        : null;
    if (!where) return [];
    return [
      {
        row: x.row ?? 1,
        column: 'Sample Name',
        message: `"${x.name}" ${where}: the lane would make a second one of that name`,
      },
    ];
  });
}

/** The 409's message: the placement's refusal first, else what the warnings are. */
function refusalMessage(refusal: string | undefined, sheetWarnings: number, reused: number): string {
  if (refusal) return `${refusal}. Send ignore_warnings=true to go ahead`;
  const parts: string[] = [];
  if (sheetWarnings) parts.push(`the annotation sheet has ${sheetWarnings} warning(s)`);
  if (reused) parts.push(`${reused} sample name(s) are already on the service`);
  const text = parts.join('; ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}: send ignore_warnings=true to go ahead`;
}

/** Validates and creates a lane, then starts demultiplexing it. */
export async function createLane(ctx: ServiceContext, user: AuthUser, form: LaneForm): Promise<LaneRow> {
  const opts = parseOptions(form.fields);
  if (!form.annotation) throw errors.validation({ annotation: 'required (xlsx or csv)' }, 'The lane has no annotation');
  if (!form.read1 && form.fields.file_data_id === undefined) {
    throw errors.validation({ file: 'required: the multiplexed FASTQ, or file_data_id' }, 'The lane has no reads');
  }
  const hasIndexReads = !!form.index1 || form.fields.index1_data_id !== undefined;
  if (opts.barcodeRead === 2 && !form.read2 && form.fields.file2_data_id === undefined) {
    throw errors.validation({ barcode_read: 'read 2 carries the barcodes, but the lane has no read 2 (file2)' });
  }
  if ((form.index2 || form.fields.index2_data_id !== undefined) && !hasIndexReads) {
    throw errors.validation({ index2: 'index read 2 needs index read 1 (index1)' });
  }
  const source: BarcodeSource = hasIndexReads && opts.source === 'auto' ? 'index-reads' : opts.source;
  if (source === 'index-reads' && !hasIndexReads) {
    throw errors.validation({ index1: 'required when the barcodes come from index reads' });
  }
  const f = form.fields;
  const reads = {
    read1: readPath(ctx, user, 'file', form.read1, f.file_data_id)!,
    read2: readPath(ctx, user, 'file2', form.read2, f.file2_data_id),
    index1: readPath(ctx, user, 'index1', form.index1, f.index1_data_id),
    index2: readPath(ctx, user, 'index2', form.index2, f.index2_data_id),
  };
  // Read, checked and planned in the sheet-parsing thread, with the barcodes' placement chosen
  // from the first reads there too: the event loop never does the work.
  const { sheet, plan, planned } = await readCheckedSheet(ctx, form.annotation, {
    mismatches: opts.mismatches,
    layout: opts.layout,
    source,
    barcodeRead: opts.barcodeRead,
    vocabulary: annotationVocabulary(loadVocabularies()),
    reads,
    placementGiven: opts.source !== 'auto',
    adapter: opts.adapter,
  });
  const report = planned.report;
  // Most reads undetermined wherever the barcodes are looked for: a warning, before anything is created.
  const refusal = planned.detection?.refusal;
  const warnings = refusal ? [...report.warnings, { row: 1, column: 'Barcode', message: refusal }] : report.warnings;
  // Names already on the service are refused like the sheet's warnings (issue 19 item 7): a lane
  // may rightly repeat a name (a sample sequenced again), so ignore_warnings makes the second one.
  const reused = reusedSampleNames(ctx, user, plan.samples);
  const all = [...warnings, ...reused];
  if (all.length && !opts.ignoreWarnings) {
    throw new ApiError(
      'ANNOTATION_WARNINGS',
      refusalMessage(refusal ?? undefined, report.warnings.length, reused.length),
      {
        warnings: all,
      },
    );
  }
  const read1 = readData(ctx, user, 'file', form.read1, form.fields.file_data_id)!;
  const read2 = readData(ctx, user, 'file2', form.read2, form.fields.file2_data_id);
  const index1 = readData(ctx, user, 'index1', form.index1, form.fields.index1_data_id);
  const index2 = readData(ctx, user, 'index2', form.index2, form.fields.index2_data_id);
  // The same record twice (the same bytes sent twice, or one data id) would be read as two.
  const repeated = repeatedFiles(
    [
      ['file', read1],
      ['file2', read2],
      ['index1', index1],
      ['index2', index2],
    ],
    (field) => READ_LABELS[field] ?? field,
  );
  if (Object.keys(repeated).length) throw errors.validation(repeated, 'A file is given twice');
  if (plan.design.dual && source === 'index-reads' && index2 === null) {
    throw errors.validation({ index2: 'the sheet has dual indexes: send index read 2 (I2) as well' });
  }
  const id = ctx.db.transaction(() => {
    const laneId = insertLane(ctx, {
      name: opts.name,
      read1_id: read1,
      read2_id: read2,
      annotation: JSON.stringify(sheet.rows),
      mismatches: report.mismatches,
      warnings: JSON.stringify(all),
      layout: opts.layout ?? null,
      barcode_source: source,
      owner_user_id: user.id,
      created: new Date(ctx.clock.now()).toISOString(),
      index1_id: index1,
      index2_id: index2,
      barcode_read: opts.barcodeRead,
      adapter: opts.adapter ?? null,
      segment_mismatches: JSON.stringify(plan.mismatches),
    });
    audit(ctx, user, 'created', { kind: 'lane', id: laneId, name: opts.name }, { read1, read2, index1, index2 });
    return laneId;
  })();
  ctx.log(`lane ${id} created: ${opts.name} by ${user.username} (${sheet.rows.length} samples)`, {
    event: 'lane.created',
    user: user.username,
    lane_id: id,
    lane: opts.name,
    samples: sheet.rows.length,
  });
  void startLane(ctx, id);
  return laneById(ctx, id)!;
}
