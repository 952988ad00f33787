/**
 * The upload queue's events, applied to the store once per frame. The core reports each file's
 * every change of state and each sample's or lane's, and with hundreds of files queued they come
 * by the thousand: applied one by one, every event made the screen compare and lay out every
 * row again, and 2,000 small files held the window frozen for minutes (issue 21, speed a user
 * feels). Events are kept in order and handed to the store together at the next frame, or after
 * a tenth of a second where frames do not come (a window in the background).
 */
import type { DesktopApi } from '../../../../shared/desktop-api/client';
import { useAppStore } from '../../store';
import type { UploadEvent } from '../../store/uploads.slice';

const BACKGROUND_FLUSH_MS = 100;

/** Subscribes the store to the queue's events; returns the unsubscribe. */
export function followUploadEvents(api: Pick<DesktopApi, 'on'>): () => void {
  let pending: UploadEvent[] = [];
  let frame: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (frame !== null) cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
    frame = timer = null;
    const events = pending;
    pending = [];
    if (events.length) useAppStore.getState().applyUploadEvents(events);
  };
  const add = (e: UploadEvent) => {
    pending.push(e);
    frame ??= requestAnimationFrame(flush);
    timer ??= setTimeout(flush, BACKGROUND_FLUSH_MS);
  };
  const offs = [
    api.on('uploads:progress', (progress) => add({ kind: 'progress', progress })),
    api.on('uploads:job-changed', (job) => add({ kind: 'job', job })),
    api.on('uploads:group-changed', (group) => add({ kind: 'group', group })),
  ];
  return () => {
    offs.forEach((off) => off());
    flush();
  };
}
