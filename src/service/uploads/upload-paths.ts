/** Where uploads in progress live on disk: folders named by row id, never by the client. */
import { join } from 'node:path';
import type { ServiceContext } from '../context';

/** Where the service keeps uploads in progress. */
export function uploadsRoot(ctx: ServiceContext): string {
  return join(ctx.config.dataDir, 'uploads');
}

/** The folder of one upload (named by row id, never by anything the client chose). */
export function uploadDir(ctx: ServiceContext, uploadId: number): string {
  return join(uploadsRoot(ctx), String(uploadId));
}

/** The file that chunks are written into at their offsets. */
export function uploadDataFile(ctx: ServiceContext, uploadId: number): string {
  return join(uploadDir(ctx, uploadId), 'data');
}
