/**
 * The editor's grid as an .xlsx, for Save and for the lane submission: written into the workbook
 * it was opened from, or, when it has none (CSV, TSV, paste, a new blank sheet), into the
 * service's lane template fetched afresh. The editor never makes a workbook of its own, so
 * every file it saves carries the template's lists, validations and description sheets.
 */
import { describeError } from '../../service-client/service-error';
import type { ServiceClient } from '../../service-client/http-client';
import { intoWorkbook, readXlsx, writeXlsx, type WorkbookData, type WorkbookSource } from './xlsx-sheet';
import { getAnnotationLane } from '../../../../shared/service-api/endpoints';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The template could not be had: nothing is saved or sent, rather than a file of another kind. */
export class TemplateUnavailableError extends Error {
  /** The cause's code (NETWORK, UNAUTHENTICATED, …), so the notice's remedy fits it. */
  readonly code: string;
  constructor(cause: unknown) {
    const { message, code } = describeError(cause);
    super(
      `The service's lane template could not be fetched (${message}). A sheet opened from CSV or started blank is written only into that template, so nothing was saved or sent: try again once the service answers.`,
    );
    this.code = code;
  }
}

/** The service's lane template, read as the editor reads any workbook. */
async function laneTemplate(client: ServiceClient): Promise<WorkbookData> {
  try {
    const { blob } = await client.blob(getAnnotationLane);
    return await readXlsx(new Uint8Array(await blob.arrayBuffer()));
  } catch (err) {
    throw new TemplateUnavailableError(err);
  }
}

/** The grid as .xlsx bytes in a Blob; throws TemplateUnavailableError when it needs the template and cannot get it. */
export async function gridWorkbook(
  client: ServiceClient,
  grid: { headers: string[]; rows: string[][]; source: unknown },
): Promise<Blob> {
  const source = grid.source as WorkbookSource | null;
  const data = source
    ? { headers: grid.headers, rows: grid.rows, source }
    : intoWorkbook(await laneTemplate(client), grid.headers, grid.rows);
  return new Blob([writeXlsx(data) as BlobPart], { type: XLSX_TYPE });
}
