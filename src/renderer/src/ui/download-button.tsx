/** Downloads a data record with the access token and saves it under its file name. */
import { useState } from 'react';
import { saveBlob } from '../service-client/http-client';
import { useServices } from '../service-client/services-context';
import { ErrorNotice } from './error-notice';
import { getDataByIdDownload } from '../../../shared/service-api/endpoints';

/** A button that fetches `/api/data/{id}/download` and saves it; failures show below it. */
export function DownloadButton({ dataId, filename }: { dataId: number; filename: string }) {
  const { client } = useServices();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const { blob, filename: served } = await client.blob(getDataByIdDownload, { params: { id: dataId } });
      saveBlob(blob, served ?? filename);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="btn btn-small" disabled={busy} onClick={() => void download()}>
        {busy ? 'Downloading…' : `Download ${filename}`}
      </button>
      <ErrorNotice error={error} />
    </>
  );
}
