/**
 * What the upload queue's events notify. A file of a sample or lane that fails for good fails
 * its group with the same reason (core/uploads/upload-queue.ts, failGroup), and on a Flow profile
 * read 2 then fails too, with read 1's reason: notifying each file as well as the group gave the
 * technician two or three notices for one refused lane (issue 23). So a grouped file says
 * nothing of its own; the group's notice names the sample or lane and the reason. A file outside
 * any group (plain data) still notifies on its own.
 */
import type { UploadGroup, UploadJob } from '../../../../shared/desktop-api/upload-schemas';
import type { NotifyKind } from '../../store/prefs.slice';

export interface UploadNotice {
  kind: NotifyKind;
  tone: 'ok' | 'bad';
  title: string;
  body: string;
}

/** The notice for a group's change, or null when the change is not worth one. */
export function groupNotice(g: UploadGroup): UploadNotice | null {
  const kind = g.kind === 'lane' ? 'lanes' : 'uploads';
  const what = g.kind === 'lane' ? 'Lane' : 'Sample';
  if (g.state === 'created')
    return { kind, tone: 'ok', title: `${what} ${g.name} uploaded`, body: 'It is on the service.' };
  if (g.state === 'failed')
    return { kind, tone: 'bad', title: `${what} ${g.name} failed`, body: g.error ?? 'See the Uploads screen' };
  return null;
}

/** The notice for a file's change: only a failed file outside any group has one. */
export function jobNotice(j: UploadJob): UploadNotice | null {
  if (j.state !== 'failed' || j.group_id !== null) return null;
  return {
    kind: 'uploads',
    tone: 'bad',
    title: `Upload of ${j.filename} failed`,
    body: j.error ?? 'See the Uploads screen',
  };
}
