/** The upload queue: overall progress and why it waits, the files' table, queue-wide actions, and adding files. */
import { useEffect, useState } from 'react';
import type { UploadList } from '../../../../shared/desktop-api/contract';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { ScreenHeader } from '../../ui/section';
import { IngestPanel } from './ingest-panel';
import { OverallProgressCard } from './overall-progress';
import { followUploadEvents } from './upload-events';
import { UploadGroups } from './upload-groups';
import { UploadSettingsForm } from './upload-settings';
import { UploadTable } from './upload-table';

/** Renders the uploads screen and keeps the queue state current while shown. */
export function UploadsScreen() {
  const { api } = useServices();
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
      <UploadTable />
    </section>
  );
}
