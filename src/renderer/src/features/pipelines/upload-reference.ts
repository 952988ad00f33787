/**
 * Uploads one file picked in the launch form straight to the service: a reference (or reads)
 * through the chunked upload route, in 8 MB chunks, where a file the caller already has (409
 * DUPLICATE_FILE) answers with that record's id; an annotation sheet through POST
 * /api/data/sheets, which checks it and keeps it (the chunked route takes no sheets). Large runs
 * of reads go through the desktop upload queue instead.
 */
import type { ServiceClient } from '../../service-client/http-client';
import { chunkCount, multipart, uploadChunkFields } from '../../../../shared/service-client/multipart';
import { ServiceError } from '../../../../shared/service-client/service-error';
import type { UploadChunkResponse } from '../../../../shared/service-api/uploads';
import { postDataSheets, postUpload } from '../../../../shared/service-api/endpoints';

/** The data types of annotation sheets (the service names a kept sheet by its extension). */
export const SHEET_TYPES: readonly string[] = ['xlsx', 'csv', 'tsv', 'txt'];

/** Keeps an annotation sheet as a data record; its id (new, or the caller's record of the same bytes). */
export async function uploadSheet(client: ServiceClient, file: File): Promise<number> {
  const form = multipart({}, [{ field: 'annotation', filename: file.name, content: file }]);
  return (await client.call(postDataSheets, { form })).id;
}

const CHUNK = 8 * 1024 * 1024;

/** Sends `file`; resolves with the data record id (new, or the existing duplicate's). */
export async function uploadReference(
  client: ServiceClient,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<number> {
  const total = chunkCount(file.size, CHUNK);
  const fileId = `launch-form-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  let last: UploadChunkResponse | undefined;
  try {
    for (let i = 0; i < total; i++) {
      const fields = uploadChunkFields({
        filename: file.name,
        chunk: i,
        totalChunks: total,
        fileId,
        totalSize: file.size,
      });
      const form = multipart(fields, [
        { field: 'file', filename: file.name, content: file.slice(i * CHUNK, (i + 1) * CHUNK) },
      ]);
      last = await client.call(postUpload, { form });
      onProgress((i + 1) / total);
    }
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'DUPLICATE_FILE' && err.dataId !== null) return err.dataId;
    throw err;
  }
  // The last chunk completes the file: its answer is the data record, not an acknowledgement.
  if (!last || !('id' in last)) throw new Error(`The upload of ${file.name} did not complete`);
  return last.id;
}
