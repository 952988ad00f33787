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
  /** What it is about, for a summary of many (summariseNotices). */
  about: { what: 'Sample' | 'Lane' | 'file'; name: string };
}

/** Up to this many notices arriving together are given one by one; more become one summary. */
export const SUMMARY_AFTER = 3;

/** The notice for a group's change, or null when the change is not worth one. */
export function groupNotice(g: UploadGroup): UploadNotice | null {
  const kind = g.kind === 'lane' ? 'lanes' : 'uploads';
  const what = g.kind === 'lane' ? 'Lane' : 'Sample';
  const about = { what, name: g.name } as const;
  if (g.state === 'created')
    return { kind, tone: 'ok', title: `${what} ${g.name} uploaded`, body: 'It is on the service.', about };
  if (g.state === 'failed')
    return {
      kind,
      tone: 'bad',
      title: `${what} ${g.name} failed`,
      body: g.error ?? 'See the Uploads screen',
      about,
    };
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
    about: { what: 'file', name: j.filename },
  };
}

/**
 * The notices that arrived together, as the technician should see them: a few one by one, and
 * many of one kind (2,000 samples of a plate finishing within a second) as one summary that
 * names the first few, instead of as many desktop notifications.
 */
export function summariseNotices(notices: readonly UploadNotice[]): UploadNotice[] {
  const byKind = new Map<string, UploadNotice[]>();
  for (const n of notices) {
    const key = `${n.kind}\n${n.tone}\n${n.about.what}`;
    byKind.set(key, [...(byKind.get(key) ?? []), n]);
  }
  return [...byKind.values()].flatMap((same) => {
    if (same.length <= SUMMARY_AFTER) return same;
    const { kind, tone, about } = same[0]!;
    const names = same.slice(0, SUMMARY_AFTER).map((n) => n.about.name);
    const more = same.length - names.length;
    const listed = `${names.join(', ')} and ${more.toLocaleString('en')} more`;
    const count = same.length.toLocaleString('en');
    const whats = about.what === 'file' ? 'files' : `${about.what.toLowerCase()}s`;
    const reasons = new Set(same.map((n) => n.body));
    return [
      tone === 'ok'
        ? { kind, tone, title: `${count} ${whats} uploaded`, body: `${listed}: on the service.`, about }
        : {
            kind,
            tone,
            title: about.what === 'file' ? `Uploads of ${count} files failed` : `${count} ${whats} failed`,
            body: `${listed}. ${reasons.size === 1 ? same[0]!.body : 'See the Uploads screen for each reason.'}`,
            about,
          },
    ];
  });
}

/**
 * Holds upload notices for `holdMs` from the first one, then gives all that arrived meanwhile,
 * summarised, in one call: a plate of samples finishing within a second is one notice.
 */
export class NoticeHold {
  private held: UploadNotice[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly give: (notices: UploadNotice[]) => void,
    private readonly holdMs: number,
  ) {}

  add(notice: UploadNotice | null): void {
    if (!notice) return;
    this.held.push(notice);
    this.timer ??= setTimeout(() => this.flush(), this.holdMs);
  }

  /** Gives what is held now (the screen is going away, or the hold is over). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const notices = summariseNotices(this.held);
    this.held = [];
    if (notices.length) this.give(notices);
  }
}
