/**
 * Turns what happens in the background into notifications: a run ready or failed, a sample or
 * lane uploaded or failed, an execution finished, failed or cancelled. Every one goes to the
 * in-app list; in Electron it is also a desktop notification, so a technician at the sequencer
 * sees it. Settings choose which kinds notify (prefs.slice).
 */
import { useEffect } from 'react';
import type { Execution, Page } from '../../service-client/types';
import { useServices } from '../../service-client/services-context';
import { useAppStore } from '../../store';
import type { NotifyKind } from '../../store/prefs.slice';
import { plural } from '../../ui/format';
import { executionNotice } from './execution-notice';

const POLL_MS = 5_000;
const ACTIVE = new Set(['queued', 'running']);
const LANE_DONE = new Set(['complete', 'failed']);

/** Mounted once while signed in; renders nothing. */
export function DesktopNotifier() {
  const { api, client } = useServices();
  const shell = useAppStore((s) => s.appInfo?.shell);

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
    const offs = [
      api.on('runs:changed', (r) => {
        if (r.state === 'ready') notify('runs', 'info', `Run ${r.name} is ready`, `${r.kind} run in ${r.path}`);
        if (r.state === 'failed') notify('runs', 'bad', `Run ${r.name} failed`, r.error ?? 'See the Runs screen');
        if (r.state === 'stale') notify('runs', 'bad', `Run ${r.name} stopped changing`, 'See the Runs screen');
      }),
      api.on('uploads:group-changed', (g) => {
        const kind = g.kind === 'lane' ? 'lanes' : 'uploads';
        const what = g.kind === 'lane' ? 'Lane' : 'Sample';
        if (g.state === 'created')
          notify(
            kind,
            'ok',
            `${what} ${g.name} uploaded`,
            g.kind === 'lane' ? 'It is demultiplexed: its samples are on the service.' : 'It is on the service.',
          );
        if (g.state === 'failed') notify(kind, 'bad', `${what} ${g.name} failed`, g.error ?? 'See the Uploads screen');
      }),
      api.on('uploads:job-changed', (j) => {
        if (j.state === 'failed')
          notify('uploads', 'bad', `Upload of ${j.filename} failed`, j.error ?? 'See the Uploads screen');
      }),
    ];
    // Executions finish on the service: remember what each was when we last looked. One that
    // started and finished between two looks (a quick QC run) is new and already finished.
    const seen = new Map<number, string>();
    let first = true;
    const poll = () =>
      client.get<Page<Execution>>('/api/executions/', { per_page: 50 }).then(
        (page) => {
          for (const e of page.items) {
            const before = seen.get(e.id);
            seen.set(e.id, e.status);
            if (first || ACTIVE.has(e.status)) continue;
            if (before !== undefined && !ACTIVE.has(before)) continue;
            const n = executionNotice(e);
            if (n) notify('executions', n.tone, n.title, n.body);
          }
          first = false;
        },
        () => {
          // Offline or signed out: the banner says so; try again at the next tick.
        },
      );
    // Lanes demultiplex on the service (a lane from the editor never passes the upload queue):
    // the same watch on their status.
    const lanes = new Map<number, string>();
    let firstLanes = true;
    const pollLanes = () =>
      client
        .get<Page<{ id: number; name: string; status: string; error?: string | null; samples?: unknown[] }>>(
          '/api/lanes/',
          { per_page: 50 },
        )
        .then(
          (page) => {
            for (const l of page.items) {
              const before = lanes.get(l.id);
              lanes.set(l.id, l.status);
              if (firstLanes || before === l.status || (before !== undefined && LANE_DONE.has(before))) continue;
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
            firstLanes = false;
          },
          () => {
            // As for executions: the next tick tries again.
          },
        );
    const tick = () => {
      void poll();
      void pollLanes();
    };
    tick();
    const timer = setInterval(tick, POLL_MS);
    return () => {
      offs.forEach((o) => o());
      clearInterval(timer);
    };
  }, [api, client, shell]);
  return null;
}
