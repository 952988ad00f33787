/**
 * The upload queue's settings as a form, shown in two places: compact on the Uploads screen
 * (parallel uploads and the always-on limit) and whole on Settings (with the weekly schedule).
 * Both load, edit and save the same settings through this hook and these fields.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { BandwidthWindow, UploadSettings } from '../../../shared/desktop-api/contract';
import { useServices } from '../service-client/services-context';
import { useAppStore } from '../store';

/** The settings being edited: loaded once, saved on submit (the app's store follows both). */
export function useUploadSettingsForm() {
  const { api } = useServices();
  const [settings, setSettings] = useState<UploadSettings | null>(null);
  const [concurrency, setConcurrency] = useState('');
  const [limit, setLimit] = useState('');
  const [schedule, setSchedule] = useState<BandwidthWindow[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const show = useCallback((s: UploadSettings) => {
    setSettings(s);
    useAppStore.getState().setUploadSettings(s);
    setConcurrency(String(s.concurrency));
    setLimit(s.limit_mbps === null ? '' : String(s.limit_mbps));
    setSchedule(s.schedule);
  }, []);
  useEffect(() => {
    api.uploads.getSettings().then(show, setError);
  }, [api, show]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    api.uploads
      .setSettings({ concurrency: Number(concurrency), limit_mbps: limit.trim() ? Number(limit) : null, schedule })
      .then((s) => {
        show(s);
        setSaved(true);
      }, setError);
  };
  return {
    settings,
    schedule,
    setSchedule,
    error,
    saved,
    submit,
    fields: { concurrency, setConcurrency, limit, setLimit },
  };
}

/** Parallel uploads and the always-on bandwidth limit. */
export function UploadLimitFields({
  fields,
  limitLabel,
}: {
  fields: ReturnType<typeof useUploadSettingsForm>['fields'];
  limitLabel: string;
}) {
  return (
    <>
      <label className="field">
        <span>Parallel uploads</span>
        <input
          type="number"
          min={1}
          max={16}
          required
          value={fields.concurrency}
          onChange={(e) => fields.setConcurrency(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{limitLabel}</span>
        <input
          type="number"
          min={0.1}
          step="any"
          value={fields.limit}
          onChange={(e) => fields.setLimit(e.target.value)}
        />
      </label>
    </>
  );
}
