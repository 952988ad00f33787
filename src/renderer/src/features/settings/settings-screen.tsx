/**
 * Settings of this computer: the upload queue (parallel uploads, an always-on bandwidth limit
 * and the weekly schedule), which events notify, and where the data lives.
 */
import { useAppStore } from '../../store';
import { NOTIFY_KINDS, type NotifyKind } from '../../store/prefs.slice';
import { ErrorNotice } from '../../ui/error-notice';
import { Loading, ScreenHeader } from '../../ui/section';
import { UploadLimitFields, useUploadSettingsForm } from '../../ui/upload-settings';
import { ScheduleEditor } from './schedule-editor';
import { ServiceStorageCard } from './service-storage-card';

const NOTIFY_LABELS: Record<NotifyKind, string> = {
  runs: 'Sequencing runs (ready, failed, stalled)',
  uploads: 'Uploads (a sample uploaded, a file failed)',
  lanes: 'Lanes (uploaded, demultiplexed, failed)',
  executions: 'Executions (finished, failed, cancelled), QC included',
};

function UploadSettingsCard() {
  const { settings, schedule, setSchedule, error, saved, submit, fields } = useUploadSettingsForm();
  if (!settings) return error ? <ErrorNotice error={error} /> : <Loading what="the upload settings" />;
  return (
    <form className="card" aria-labelledby="upload-settings-title" data-testid="settings-uploads" onSubmit={submit}>
      <h3 id="upload-settings-title">Uploads</h3>
      <div className="inline-form">
        <UploadLimitFields fields={fields} limitLabel="Always-on bandwidth limit (Mbit/s, empty for none)" />
      </div>
      <ScheduleEditor windows={schedule} onChange={setSchedule} />
      <ErrorNotice error={error} />
      <div className="launch-bar">
        <button type="submit" className="btn btn-primary">
          Save upload settings
        </button>
        {saved && (
          <span role="status" className="muted" data-testid="settings-saved">
            Saved. New limits apply to the next chunk.
          </span>
        )}
      </div>
    </form>
  );
}

function NotificationsCard() {
  const prefs = useAppStore((s) => s.prefs);
  const setPrefs = useAppStore((s) => s.setPrefs);
  const shell = useAppStore((s) => s.appInfo?.shell);
  return (
    // A card headed like the others on this screen (a bordered legend stood out among them).
    <fieldset className="card" data-testid="settings-notifications" aria-labelledby="notifications-title">
      <h3 id="notifications-title">Notifications</h3>
      <p className="field-help">
        Chosen events appear under Notifications{shell === 'electron' ? ' and on the desktop' : ''}.
      </p>
      {NOTIFY_KINDS.map((k) => (
        <label key={k} className="check">
          <input
            type="checkbox"
            checked={prefs.notify[k]}
            onChange={(e) => setPrefs({ notify: { ...prefs.notify, [k]: e.target.checked } })}
          />{' '}
          {NOTIFY_LABELS[k]}
        </label>
      ))}
      {/* Only the desktop app shows them (desktop-notifier.tsx): in a browser the box did nothing. */}
      <label className="check">
        <input
          type="checkbox"
          checked={shell === 'electron' && prefs.desktopNotifications}
          disabled={shell !== 'electron'}
          onChange={(e) => setPrefs({ desktopNotifications: e.target.checked })}
        />{' '}
        Also show them as desktop notifications
        {shell === 'electron' ? '' : ' (in the desktop app; this is the browser, which shows them in the app only)'}
      </label>
    </fieldset>
  );
}

function StorageCard() {
  const info = useAppStore((s) => s.appInfo);
  const status = useAppStore((s) => s.serviceStatus);
  return (
    <section className="card" aria-labelledby="storage-title" data-testid="settings-storage">
      <h3 id="storage-title">Where data lives</h3>
      <dl className="facts">
        <dt>Service</dt>
        <dd>
          {status?.mode === 'remote' ? 'a lab service' : 'the local service on this computer'}
          {status?.url ? ` at ${status.url}` : ''}
        </dd>
        <dt>Local service data folder</dt>
        <dd>
          <code data-testid="data-dir">{info?.data_dir ?? 'not reported'}</code>
        </dd>
        <dt>App state (upload queue, profiles)</dt>
        <dd>
          <code>{info?.state_dir ?? 'not reported'}</code>
        </dd>
      </dl>
      <p className="field-help">Back up the data folder to keep uploaded reads, samples and results.</p>
    </section>
  );
}

/** Renders the settings screen. */
export function SettingsScreen() {
  // A Flow server has no storage report of Laneway's to show.
  const flow = useAppStore((s) => s.profiles?.profiles.find((p) => p.id === s.profiles?.active_id)?.wire === 'flow');
  return (
    <section aria-labelledby="settings-title">
      <ScreenHeader title="Settings" id="settings-title" />
      <UploadSettingsCard />
      <NotificationsCard />
      <StorageCard />
      {!flow && <ServiceStorageCard />}
    </section>
  );
}
