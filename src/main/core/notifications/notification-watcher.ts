/**
 * Watches the signed-in user's service notifications and emits each new one as the desktop
 * API's `notifications:new` event, for the shell to show natively. It polls (the service
 * offers no push for notifications, and a remote service behind a proxy may not keep a socket
 * open); the first look after a sign-in only sets where "new" starts, so a backlog of unread
 * notifications is not replayed as a burst. That look is taken at the sign-in itself, not at the
 * next tick: taken up to 10 s later it counted an execution that ended in between as backlog, and
 * its notice was never shown.
 */
import type { ServiceNotice } from '../../../shared/desktop-api/notification-schemas';
import type { NotificationPage } from '../../../shared/service-api/notifications';
import type { ServiceClient } from '../service-client/service-client';
import { getNotifications } from '../../../shared/service-api/endpoints';

export const NOTIFICATION_POLL_MS = 10_000;

export interface NotificationWatcherDeps {
  client(): ServiceClient | null;
  emit(event: 'notifications:new', payload: ServiceNotice): void;
  log(message: string): void;
  intervalMs?: number;
}

export class NotificationWatcher {
  /** The highest id seen for the current sign-in; null until the first look. */
  private seen: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  /** Bumped by reset(): a look that began for an earlier sign-in must not set the start. */
  private generation = 0;
  private stopped = false;

  constructor(private readonly deps: NotificationWatcherDeps) {}

  start(): void {
    if (this.timer) return;
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.deps.intervalMs ?? NOTIFICATION_POLL_MS);
  }

  /**
   * After a sign-in, sign-out or profile switch: starts afresh and looks at once, so that "new"
   * starts now; whatever ends after this moment is told.
   */
  reset(): void {
    this.seen = null;
    this.generation += 1;
    if (!this.stopped) void this.poll();
  }

  /** Looks once (also what the timer does); emits what is new since the last look. */
  poll(): Promise<void> {
    this.polling ??= this.look().finally(() => (this.polling = null));
    return this.polling;
  }

  private async look(): Promise<void> {
    for (;;) {
      const generation = this.generation;
      const client = this.deps.client();
      if (!client) return;
      let page: NotificationPage;
      try {
        page = await client.call(getNotifications, { query: { unread: true, per_page: 50 } });
      } catch {
        // Offline or signed out: the status banner says so; the next tick tries again.
        return;
      }
      // A reset while the answer was on its way: it may be another account's; ask again.
      if (generation === this.generation) return this.take(page);
    }
  }

  private take(page: NotificationPage): void {
    const top = Math.max(0, ...page.items.map((n) => n.id));
    if (this.seen === null) {
      this.seen = top;
      return;
    }
    const fresh = page.items.filter((n) => n.id > this.seen!).sort((a, b) => a.id - b.id);
    this.seen = Math.max(this.seen, top);
    for (const n of fresh) {
      try {
        this.deps.emit('notifications:new', {
          id: n.id,
          kind: n.kind,
          subject: n.subject,
          body: n.body,
          data: n.data,
          created: n.created,
        });
      } catch (err) {
        // A notice the desktop contract refuses is logged, not allowed to stop the others.
        this.deps.log(`notification ${n.id} not passed on: ${(err as Error).message}`);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
