/**
 * A received annotation sheet read, checked and planned in the sheet-parsing thread (the event
 * loop never parses a workbook). A sheet that cannot be read, or breaks the lane rules, is
 * refused with INVALID_ANNOTATION and its rows, for a lane and for a sheet kept as data alike.
 */
import { TableReadError } from '../../shared/sheets/table-limits';
import type { ServiceContext } from '../context';
import { ApiError } from '../http/api-error';
import type { DemuxPlan, LanePlanOptions, ParsedSheet } from '../tools/demux/index';
import type { ReceivedFile } from './lane-form';

export interface CheckedSheet {
  sheet: ParsedSheet;
  plan: DemuxPlan;
  planned: NonNullable<ParsedSheet['planned']>;
}

export async function readCheckedSheet(
  ctx: ServiceContext,
  file: ReceivedFile,
  options: LanePlanOptions,
): Promise<CheckedSheet> {
  let sheet: ParsedSheet;
  try {
    sheet = await ctx.parts.sheetParser.read(file.path, file.filename, {}, options);
  } catch (err) {
    if (!(err instanceof TableReadError)) throw err;
    throw new ApiError('INVALID_ANNOTATION', `The annotation sheet cannot be read: ${err.message}`, {
      rows: [{ row: err.row, column: err.column, message: err.message }],
    });
  }
  const planned = sheet.planned!;
  if (!planned.plan || planned.report.errors.length) {
    throw new ApiError('INVALID_ANNOTATION', `The annotation sheet has ${planned.report.errors.length} error(s)`, {
      rows: planned.report.errors,
    });
  }
  return { sheet, plan: planned.plan, planned };
}
