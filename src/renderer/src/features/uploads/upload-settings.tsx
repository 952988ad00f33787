/** Queue settings: parallel uploads and an always-on bandwidth limit (the schedule stays as set). */
import { ErrorNotice } from '../../ui/error-notice';
import { UploadLimitFields, useUploadSettingsForm } from '../../ui/upload-settings';

/** A small form over `uploads:get-settings` / `uploads:set-settings`. */
export function UploadSettingsForm() {
  const { settings, error, saved, submit, fields } = useUploadSettingsForm();
  if (!settings) return <ErrorNotice error={error} />;
  return (
    <form className="card inline-form" aria-label="Upload settings" onSubmit={submit}>
      <UploadLimitFields fields={fields} limitLabel="Bandwidth limit (Mbit/s, empty for none)" />
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
