/**
 * Turns what happens in the background into notifications: a run ready or failed, a sample or
 * lane uploaded or failed, an execution that ended (the service's notification, passed on by the
 * core). Every one goes to the in-app list; in Electron it is also a desktop notification, so a
 * technician at the sequencer sees it; in a browser, a Web Notification where allowed, else a toast.
 */
import { useEffect } from 'react';
import { useServices } from '../../service-client/services-context';
import { useAppStore } from '../../store';

/** Mounted once while signed in; renders nothing. */
export function DesktopNotifier() {
  const { api } = useServices();
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
    // Executions end on the service, which tells their owner; the core passes each new notice on.
    offs.push(
      api.on('notifications:new', (n) => {
        const tone = n.data.status === 'failed' ? 'bad' : n.data.status === 'completed' ? 'ok' : 'info';
        useAppStore.getState().addActivity({ tone, title: n.subject, body: n.body });
        // In Electron the shell shows it natively; in a browser, a Web Notification where the
        // user allowed them, otherwise a toast inside the app.
        if (shell === 'electron') return;
        if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
          new Notification(n.subject, { body: n.body.split('\n')[0] ?? '', tag: `laneway-${n.id}` });
        } else {
          useAppStore.getState().pushToast({ tone, message: n.subject });
        }
      }),
    );
    return () => {
      offs.forEach((o) => o());
    };
  }, [api, shell]);
  return null;
}
