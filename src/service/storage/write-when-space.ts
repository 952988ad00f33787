/**
 * Records the end of background work (an execution, a lane) even when the disk is full. The
 * write is tried at once; if the disk (or SQLite's file) is full it is retried every second
 * until space is freed or the service stops (a restart then marks the work interrupted), so
 * nothing stays "running" for good and no rejection goes unhandled.
 */
import type { ServiceContext } from '../context';
import { isStorageFull } from '../http/storage-errors';

export function writeWhenSpace(ctx: ServiceContext, label: string, write: () => void): void {
  try {
    write();
    return;
  } catch (err) {
    ctx.log(`${label}: could not record the end: ${(err as Error).message}`);
    if (!isStorageFull(err)) return;
  }
  let closed = false;
  const timer = setInterval(() => {
    if (closed) return clearInterval(timer);
    try {
      write();
      clearInterval(timer);
    } catch (err) {
      if (!isStorageFull(err)) clearInterval(timer);
    }
  }, 1000);
  timer.unref();
  ctx.onClose(() => {
    closed = true;
    clearInterval(timer);
  });
}
