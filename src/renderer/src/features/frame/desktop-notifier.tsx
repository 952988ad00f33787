/**
 * Turns what happens in the background into notifications: a run ready or failed, a sample or
 * lane uploaded or failed, an execution finished or failed. Every one goes to the in-app list;
 * in Electron it is also a desktop notification, so a technician at the sequencer sees it.
 */
import { useEffect } from 'react';
import type { Execution, Page } from '../../service-client/types';
import { useServices } from '../../service-client/services-context';
import { useAppStore } from '../../store';

const POLL_MS = 15_000;
const ACTIVE = new Set(['queued', 'running']);

/** Mounted once while signed in; renders nothing. */
export function DesktopNotifier() {
  const { api, client } = useServices();
  const shell = useAppStore((s) => s.appInfo?.shell);

  useEffect(() => {
    const notify = (tone: 'ok' | 'bad' | 'info', title: string, body: string) => {
      useAppStore.getState().addActivity({ tone, title, body });
      if (shell !== 'electron' || typeof Notification === 'undefined') return;
      if (Notification.permission === 'granted') new Notification(title, { body });
      else if (Notification.permission === 'default')
        void Notification.requestPermission().then((p) => p === 'granted' && new Notification(title, { body }));
    };
    const offs = [
      api.on('runs:changed', (r) => {
        if (r.state === 'ready') notify('info', `Run ${r.name} is ready`, `${r.kind} run in ${r.path}`);
        if (r.state === 'failed') notify('bad', `Run ${r.name} failed`, r.error ?? 'See the Runs screen');
      }),
      api.on('uploads:group-changed', (g) => {
        if (g.state === 'created')
          notify('ok', `${g.kind === 'lane' ? 'Lane' : 'Sample'} ${g.name} uploaded`, 'It is on the service.');
        if (g.state === 'failed') notify('bad', `Upload of ${g.name} failed`, g.error ?? 'See the Uploads screen');
      }),
      api.on('uploads:job-changed', (j) => {
        if (j.state === 'failed') notify('bad', `Upload of ${j.filename} failed`, j.error ?? 'See the Uploads screen');
      }),
    ];
    // Executions finish on the service: watch the ones that were running when we looked.
    const running = new Map<number, string>();
    let first = true;
    const poll = () =>
      client.get<Page<Execution>>('/api/executions/', { per_page: 50 }).then(
        (page) => {
          for (const e of page.items) {
            if (ACTIVE.has(e.status)) running.set(e.id, e.name);
            else if (running.has(e.id)) {
              running.delete(e.id);
              if (e.status === 'completed') notify('ok', `Execution ${e.name} finished`, `${e.pipeline?.name ?? ''}`);
              if (e.status === 'failed') notify('bad', `Execution ${e.name} failed`, e.error ?? '');
            }
          }
          first = false;
        },
        () => {
          // Offline or signed out: the banner says so; try again at the next tick.
          if (first) running.clear();
        },
      );
    void poll();
    const timer = setInterval(() => void poll(), POLL_MS);
    return () => {
      offs.forEach((o) => o());
      clearInterval(timer);
    };
  }, [api, client, shell]);
  return null;
}
