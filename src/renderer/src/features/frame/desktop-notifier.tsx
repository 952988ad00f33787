/**
 * Turns what happens in the background into notifications: a run ready, failed or stalled, a
 * sample or lane uploaded or failed, a lane demultiplexed, an execution that ended (the
 * service's notification, passed on by the core). Every one goes to the in-app list; in
 * Electron it is also a desktop notification, so a technician at the sequencer sees it; in a
 * browser, a Web Notification where allowed, else a toast. Settings choose which kinds notify.
 */
import { useEffect } from 'react';
import { useServices } from '../../service-client/services-context';
import { useAppStore } from '../../store';
import type { NotifyKind } from '../../store/prefs.slice';
import { plural } from '../../ui/format';
import { getLanes } from '../../../../shared/service-api/endpoints';
import { groupNotice, jobNotice, NoticeHold } from './upload-notices';

const POLL_MS = 5_000;
/** How long upload notices are held to be given together. */
const HOLD_MS = 1_000;
const LANE_DONE = new Set(['complete', 'failed']);

/** Mounted once while signed in; renders nothing. */
export function DesktopNotifier() {
  const { api, client } = useServices();
  const shell = useAppStore((s) => s.appInfo?.shell);
  // Lane statuses are per service: after a switch, the other service's lanes are not news.
  const profileId = useAppStore((s) => s.profiles?.active_id);

  useEffect(() => {
    const notify = (kind: NotifyKind, tone: 'ok' | 'bad' | 'info', title: string, body: string) => {
      const { prefs, addActivity } = useAppStore.getState();
      if (!prefs.notify[kind]) return;
      addActivity({ tone, title, body });
      if (!prefs.desktopNotifications || shell !== 'electron' || typeof Notification === 'undefined') return;
      if (Notification.permission === 'granted') new Notification(title, { body });
      else if (Notification.permission === 'default')
        void Notification.requestPermission().then((p) => p === 'granted' && new Notification(title, { body }));
    };
    // Upload notices are held for a moment and given together (summariseNotices): a plate of
    // samples finishing at once is one notice, not hundreds of desktop notifications.
    const held = new NoticeHold((notices) => {
      for (const n of notices) notify(n.kind, n.tone, n.title, n.body);
    }, HOLD_MS);
    const offs = [
      api.on('runs:changed', (r) => {
        if (r.state === 'ready') notify('runs', 'info', `Run ${r.name} is ready`, `${r.kind} run in ${r.path}`);
        if (r.state === 'failed') notify('runs', 'bad', `Run ${r.name} failed`, r.error ?? 'See the Runs screen');
        if (r.state === 'stale') notify('runs', 'bad', `Run ${r.name} stopped changing`, 'See the Runs screen');
      }),
      // A sample's or lane's files notify through their group only (upload-notices.ts).
      api.on('uploads:group-changed', (g) => held.add(groupNotice(g))),
      api.on('uploads:job-changed', (j) => held.add(jobNotice(j))),
      // Executions end on the service, which tells their owner; the core passes each new notice on.
      api.on('notifications:new', (n) => {
        if (!useAppStore.getState().prefs.notify.executions) return;
        const tone = n.data.status === 'failed' ? 'bad' : n.data.status === 'completed' ? 'ok' : 'info';
        useAppStore.getState().addActivity({ tone, title: n.subject, body: n.body, serviceId: n.id });
        // In Electron the shell shows it natively; in a browser, a Web Notification where the
        // user allowed them, otherwise a toast inside the app.
        if (shell === 'electron') return;
        if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
          new Notification(n.subject, { body: n.body.split('\n')[0] ?? '', tag: `laneway-${n.id}` });
        } else {
          useAppStore.getState().pushToast({ tone, message: n.subject });
        }
      }),
    ];
    // Lanes demultiplex on the service (a lane from the editor never passes the upload queue):
    // watch their status and tell when one is done or failed.
    const lanes = new Map<number, string>();
    let first = true;
    const pollLanes = () =>
      client.call(getLanes, { query: { per_page: 50 } }).then(
        (page) => {
          for (const l of page.items) {
            const before = lanes.get(l.id);
            lanes.set(l.id, l.status);
            if (first || before === l.status || (before !== undefined && LANE_DONE.has(before))) continue;
            if (l.status === 'complete')
              notify(
                'lanes',
                'ok',
                `Lane ${l.name} demultiplexed`,
                `${plural(l.samples?.length ?? 0, 'sample')} created`,
              );
            if (l.status === 'failed')
              notify('lanes', 'bad', `Lane ${l.name} failed`, l.error ?? 'See Lane annotation');
          }
          first = false;
        },
        () => {
          // Offline or signed out: the banner says so; the next tick tries again.
        },
      );
    void pollLanes();
    const timer = setInterval(() => void pollLanes(), POLL_MS);
    return () => {
      offs.forEach((o) => o());
      clearInterval(timer);
      held.flush();
    };
  }, [api, client, shell, profileId]);
  return null;
}
