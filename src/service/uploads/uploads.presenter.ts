/** The JSON body of GET /api/upload/{file_id}: what the service holds, for a client to resume. */
import type { UploadStatus } from '../../shared/service-api/uploads';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { canReadData } from '../policy/derived-data';
import { chunksOf, type UploadRow } from './uploads.store';

/** An upload's status; its data record is named only while the caller may read it. */
export function presentUploadStatus(ctx: ServiceContext, user: AuthUser, upload: UploadRow): UploadStatus {
  const complete = upload.complete === 1;
  return {
    file_id: upload.file_id,
    filename: upload.filename,
    total_chunks: upload.total_chunks,
    total_size: upload.total_size,
    received_chunks: complete
      ? Array.from({ length: upload.total_chunks }, (_, i) => i)
      : chunksOf(ctx, upload.id).map((c) => c.idx),
    complete,
    data_id: upload.data_id !== null && canReadData(ctx.db, upload.data_id, user) ? upload.data_id : null,
  };
}
