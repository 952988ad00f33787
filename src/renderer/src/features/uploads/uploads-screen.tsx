/** The upload queue: overall progress and why it waits, per-file rows, queue-wide actions, and adding files. */
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { UploadList } from '../../../../shared/desktop-api/contract';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { ScreenHeader } from '../../ui/section';
import { IngestPanel } from './ingest-panel';
import { OverallProgressCard } from './overall-progress';
import { followUploadEvents } from './upload-events';
import { UploadGroups } from './upload-groups';
import { UploadRow } from './upload-row';
import { UploadSettingsForm } from './upload-settings';

/** Renders the uploads screen and keeps the queue state current while shown. */
export function UploadsScreen() {
  const { api } = useServices();
  const ids = useAppStore(
    useShallow((s) =>
      Object.keys(s.uploadJobs)
        .map(Number)
        .sort((a, b) => b - a),
    ),
  );
  const overall = useAppStore((s) => s.uploadOverall);
  const settings = useAppStore((s) => s.uploadSettings);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const st = useAppStore.getState();
    api.uploads.list().then(st.setUploadList, setError);
    return followUploadEvents(api);
  }, [api]);

  const all = (fn: () => Promise<UploadList>) => {
    setError(null);
    fn().then(useAppStore.getState().setUploadList, setError);
  };
  return (
    <section aria-labelledby="uploads-title">
      <ScreenHeader title="Uploads" id="uploads-title">
        <button type="button" className="btn" onClick={() => all(api.uploads.pauseAll)}>
          Pause all
        </button>
        <button type="button" className="btn" onClick={() => all(api.uploads.resumeAll)}>
          Resume all
        </button>
        <button type="button" className="btn" onClick={() => all(api.uploads.retryAll)}>
          Retry failed
        </button>
        <button type="button" className="btn" onClick={() => all(api.uploads.clearFinished)}>
          Clear finished
        </button>
      </ScreenHeader>
      <ErrorNotice error={error} />
      <IngestPanel />
      <UploadSettingsForm />
      {overall && <OverallProgressCard overall={overall} settings={settings} />}
      <UploadGroups />
      <table className="grid" data-testid="uploads-table">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">State</th>
            <th scope="col">Progress</th>
            <th scope="col">Speed</th>
            <th scope="col">ETA</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {ids.map((id) => (
            <UploadRow key={id} id={id} />
          ))}
        </tbody>
      </table>
      {ids.length === 0 && <p className="muted">The queue is empty.</p>}
    </section>
  );
}
