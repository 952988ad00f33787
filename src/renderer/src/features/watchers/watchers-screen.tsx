/**
 * Watched instrument folders: add one (a path field, and a folder picker in Electron), its
 * instrument kind, auto-upload, sample metadata and pipeline launch; status, edit, rescan, remove.
 */
import { useEffect, useState } from 'react';
import type { Watcher, WatcherEvent } from '../../../../shared/desktop-api/contract';
import { useServices } from '../../service-client/services-context';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorNotice } from '../../ui/error-notice';
import { formatTime } from '../../ui/format';
import { ScreenHeader } from '../../ui/section';
import { settingsOf, WatcherForm } from './watcher-form';

const metadataText = (w: Watcher) =>
  [w.sample_metadata.organism, w.sample_metadata.category].filter((v) => typeof v === 'string' && v).join(' · ') ||
  'none';

/** Renders the screen and follows watcher changes while shown. */
export function WatchersScreen() {
  const { api } = useServices();
  const [watchers, setWatchers] = useState<Watcher[]>([]);
  const [events, setEvents] = useState<WatcherEvent[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState<number | null>(null);
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

  const act = async (fn: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      await fn();
      setWatchers((await api.watchers.list()).watchers);
      return true;
    } catch (err) {
      setError(err);
      return false;
    }
  };
  return (
    <section aria-labelledby="watchers-title">
      <ScreenHeader title="Watched folders" id="watchers-title" />
      <WatcherForm initial={settingsOf()} submitLabel="Watch folder" onSubmit={(f) => act(() => api.watchers.add(f))} />
      <ErrorNotice error={error} />
      <table className="grid" data-testid="watchers-table">
        <thead>
          <tr>
            <th scope="col">Folder</th>
            <th scope="col">Instrument</th>
            <th scope="col">Auto-upload</th>
            <th scope="col">Samples get</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {watchers.map((w) => (
            <tr key={w.id} data-testid={`watcher-${w.id}`}>
              <td className="path-cell" title={w.path}>
                {w.path}
              </td>
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
                {metadataText(w)}
                {w.launch && <div className="muted">then {w.launch.pipeline}</div>}
              </td>
              <td>
                <span className={`status-pill status-${w.status === 'watching' ? 'ok' : 'failed'}`}>{w.status}</span>
                {w.error && <div className="field-message">{w.error}</div>}
                <div className="muted">last scan {formatTime(w.last_scan)}</div>
                {w.not_runs && (
                  <div className="field-message" data-testid="not-runs">
                    Left alone, not {w.not_runs.names.length === 1 ? 'a run' : 'runs'}: {w.not_runs.names.join(', ')} (
                    {w.not_runs.reason}). Add such files on Uploads.
                  </div>
                )}
              </td>
              <td>
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={`Scan now: ${w.path}`}
                  onClick={() => void act(() => api.watchers.rescan({ id: w.id }))}
                >
                  Scan now
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={`${w.enabled ? 'Stop watching' : 'Start watching'}: ${w.path}`}
                  onClick={() => void act(() => api.watchers.update({ id: w.id, enabled: !w.enabled }))}
                >
                  {w.enabled ? 'Stop watching' : 'Start watching'}
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  aria-expanded={editing === w.id}
                  aria-label={`Edit: ${w.path}`}
                  onClick={() => setEditing(editing === w.id ? null : w.id)}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={`Remove: ${w.path}`}
                  onClick={() => setRemoving(w)}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {watchers.length === 0 && <p className="muted">No folder is watched yet.</p>}
      {watchers
        .filter((w) => w.id === editing)
        .map((w) => (
          <WatcherForm
            key={w.id}
            editing
            initial={settingsOf(w)}
            submitLabel="Save changes"
            onCancel={() => setEditing(null)}
            onSubmit={async (f) => {
              const saved = await act(() =>
                api.watchers.update({
                  id: w.id,
                  kind: f.kind,
                  auto_upload: f.auto_upload,
                  polling: f.polling,
                  sample_metadata: f.sample_metadata,
                  launch: f.launch,
                }),
              );
              if (saved) setEditing(null);
              return saved;
            }}
          />
        ))}
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
        cancelLabel="Keep watching"
        confirmLabel="Stop watching"
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
