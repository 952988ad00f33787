/**
 * Watched instrument folders: add one (a path field; the desktop API has no folder picker, so
 * Electron uses the same field), its instrument kind and auto-upload, status, rescan, remove.
 */
import { useEffect, useState } from 'react';
import type { InstrumentKind, Watcher, WatcherEvent } from '../../../../shared/desktop-api/contract';
import { useServices } from '../../service-client/services-context';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorNotice } from '../../ui/error-notice';
import { formatTime } from '../../ui/format';
import { ScreenHeader } from '../../ui/section';

const KINDS: Array<{ value: InstrumentKind; label: string }> = [
  { value: 'illumina', label: 'Illumina (waits for CopyComplete.txt)' },
  { value: 'nanopore', label: 'Oxford Nanopore (waits for the final summary)' },
  { value: 'element', label: 'Element AVITI (waits for RunUploaded.json)' },
  { value: 'generic', label: 'Other (ready when nothing changed for a while)' },
];

/** Renders the screen and follows watcher changes while shown. */
export function WatchersScreen() {
  const { api } = useServices();
  const [watchers, setWatchers] = useState<Watcher[]>([]);
  const [events, setEvents] = useState<WatcherEvent[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [form, setForm] = useState({ path: '', kind: 'illumina' as InstrumentKind, auto_upload: true, polling: false });
  const [removing, setRemoving] = useState<Watcher | null>(null);

  useEffect(() => {
    api.watchers.list().then((l) => setWatchers(l.watchers), setError);
    const offs = [
      api.on('watchers:changed', (w) =>
        setWatchers((ws) => (ws.some((x) => x.id === w.id) ? ws.map((x) => (x.id === w.id ? w : x)) : [...ws, w])),
      ),
      api.on('watchers:event', (e) => setEvents((es) => [e, ...es].slice(0, 50))),
    ];
    return () => offs.forEach((o) => o());
  }, [api]);

  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      setWatchers((await api.watchers.list()).watchers);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section aria-labelledby="watchers-title">
      <ScreenHeader title="Watched folders" id="watchers-title" />
      <form
        className="card"
        aria-label="Watch a folder"
        onSubmit={(e) => {
          e.preventDefault();
          void act(() => api.watchers.add(form)).then(() => setForm({ ...form, path: '' }));
        }}
      >
        <div className="inline-form">
          <label className="field">
            <span>Folder path</span>
            <input
              required
              value={form.path}
              onChange={(e) => setForm({ ...form, path: e.target.value })}
              data-testid="watcher-path"
            />
          </label>
          <label className="field">
            <span>Instrument</span>
            <select value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as InstrumentKind })}>
              {KINDS.map((k) => (
                <option key={k.value} value={k.value}>
                  {k.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label>
          <input
            type="checkbox"
            checked={form.auto_upload}
            onChange={(e) => setForm({ ...form, auto_upload: e.target.checked })}
          />{' '}
          Upload finished runs automatically
        </label>{' '}
        <label>
          <input
            type="checkbox"
            checked={form.polling}
            onChange={(e) => setForm({ ...form, polling: e.target.checked })}
          />{' '}
          Network share (poll instead of file events)
        </label>{' '}
        <button type="submit" className="btn btn-primary">
          Watch folder
        </button>
      </form>
      <ErrorNotice error={error} />
      <table className="grid" data-testid="watchers-table">
        <thead>
          <tr>
            <th scope="col">Folder</th>
            <th scope="col">Instrument</th>
            <th scope="col">Auto-upload</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {watchers.map((w) => (
            <tr key={w.id} data-testid={`watcher-${w.id}`}>
              <td>{w.path}</td>
              <td>{w.kind}</td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Auto-upload from ${w.path}`}
                  checked={w.auto_upload}
                  onChange={(e) => void act(() => api.watchers.update({ id: w.id, auto_upload: e.target.checked }))}
                />
              </td>
              <td>
                <span className={`status-pill status-${w.status === 'watching' ? 'ok' : 'failed'}`}>{w.status}</span>
                {w.error && <div className="field-message">{w.error}</div>}
                <div className="muted">last scan {formatTime(w.last_scan)}</div>
              </td>
              <td>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => void act(() => api.watchers.rescan({ id: w.id }))}
                >
                  Scan {w.path} now
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => void act(() => api.watchers.update({ id: w.id, enabled: !w.enabled }))}
                >
                  {w.enabled ? 'Stop' : 'Start'} watching {w.path}
                </button>
                <button type="button" className="btn btn-small" onClick={() => setRemoving(w)}>
                  Remove {w.path}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {watchers.length === 0 && <p className="muted">No folder is watched yet.</p>}
      {events.length > 0 && (
        <section className="card" aria-label="Recent watcher events">
          <h3>Recent events</h3>
          <ul className="plain-list">
            {events.map((e, i) => (
              <li key={i}>
                {formatTime(e.at)} · {e.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Stop watching ${removing?.path ?? ''}?`}
        confirmLabel="Remove"
        tone="danger"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const w = removing;
          setRemoving(null);
          if (w) void act(() => api.watchers.remove({ id: w.id }));
        }}
      >
        The folder and its files are not touched; runs already uploaded stay on the service.
      </ConfirmDialog>
    </section>
  );
}
