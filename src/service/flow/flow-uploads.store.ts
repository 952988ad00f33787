/**
 * What the Flow mount adds to an upload row: Flow's offset protocol never says how many chunks
 * a file has until its last one, so the row's total_chunks is kept one ahead of the chunks
 * received and set to the true count when the last chunk arrives.
 */
import type { ServiceContext } from '../context';

/** Sets an unfinished upload's chunk count. */
export function setUploadTotalChunks(ctx: ServiceContext, uploadId: number, totalChunks: number): void {
  ctx.db.prepare('UPDATE uploads SET total_chunks = ? WHERE id = ? AND complete = 0').run(totalChunks, uploadId);
}
