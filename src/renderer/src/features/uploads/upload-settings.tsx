/** Queue settings: parallel uploads and an always-on bandwidth limit (the schedule stays as set). */
import { useEffect, useState } from 'react';
import type { UploadSettings } from '../../../../shared/desktop-api/contract';
import { useServices } from '../../service-client/services-context';
import { useAppStore } from '../../store';
import { ErrorNotice } from '../../ui/error-notice';

/** A small form over `uploads:get-settings` / `uploads:set-settings`. */
export function UploadSettingsForm() {
  const { api } = useServices();
  const [settings, setSettings] = useState<UploadSettings | null>(null);
  const [limit, setLimit] = useState('');
  const [concurrency, setConcurrency] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    api.uploads.getSettings().then((s) => {
      setSettings(s);
      useAppStore.getState().setUploadSettings(s);
      setLimit(s.limit_mbps === null ? '' : String(s.limit_mbps));
      setConcurrency(String(s.concurrency));
    }, setError);
  }, [api]);
  if (!settings) return <ErrorNotice error={error} />;
  return (
    <form
      className="card inline-form"
      aria-label="Upload settings"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        setSaved(false);
        api.uploads
          .setSettings({
            ...settings,
            concurrency: Number(concurrency),
            limit_mbps: limit.trim() ? Number(limit) : null,
          })
          .then((s) => {
            setSettings(s);
            useAppStore.getState().setUploadSettings(s);
            setSaved(true);
          }, setError);
      }}
    >
      <label className="field">
        <span>Parallel uploads</span>
        <input type="number" min={1} max={16} value={concurrency} onChange={(e) => setConcurrency(e.target.value)} />
      </label>
      <label className="field">
        <span>Bandwidth limit (Mbit/s, empty for none)</span>
        <input type="number" min={0.1} step="any" value={limit} onChange={(e) => setLimit(e.target.value)} />
      </label>
      <button type="submit" className="btn">
        Save settings
      </button>
      {saved && (
        <span role="status" className="muted">
          Saved
        </span>
      )}
      {settings.schedule.length > 0 && (
        <span className="field-help">
          {settings.schedule.length === 1
            ? 'A bandwidth schedule window applies'
            : `${settings.schedule.length} bandwidth schedule windows apply`}{' '}
          on top (see Settings).
        </span>
      )}
      <ErrorNotice error={error} />
    </form>
  );
}
