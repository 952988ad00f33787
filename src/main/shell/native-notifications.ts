/**
 * The Electron shell's part of notifications: each `notifications:new` event of the desktop
 * core becomes a native notification (the OS notification centre), clicking it brings the
 * window forward. Thin on purpose: what is new is decided by the core (plain Node, tested).
 */
import { Notification, type BrowserWindow } from 'electron';
import type { Dispatcher } from '../core/index';
import type { ServiceNotice } from '../../shared/desktop-api/notification-schemas';

/** Shows the core's new notifications natively; returns the unsubscribe function. */
export function showNativeNotifications(dispatcher: Dispatcher, window: () => BrowserWindow | null): () => void {
  return dispatcher.subscribe((event, payload) => {
    if (event !== 'notifications:new' || !Notification.isSupported()) return;
    const n = payload as ServiceNotice;
    const shown = new Notification({ title: n.subject, body: n.body.split('\n')[0] ?? '' });
    shown.on('click', () => {
      const w = window();
      if (w && !w.isDestroyed()) {
        if (w.isMinimized()) w.restore();
        w.focus();
      }
    });
    shown.show();
  });
}
