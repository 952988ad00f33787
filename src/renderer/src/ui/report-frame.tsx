/**
 * An HTML report (a QC report, a MultiQC report) shown inside the app. The app asks the service
 * for a short-lived view address (`POST /api/data/{id}/view`, with the access token, which a
 * plain link could not carry) and frames it. The service serves it sandboxed under its own
 * opaque origin with `connect-src 'none'` (data-view.routes.ts), and the frame adds
 * `sandbox="allow-scripts"` without `allow-same-origin`: MultiQC's scripts run (its plots,
 * toolbox and tables), but the report reads none of the app's tokens or storage and cannot call
 * the service. Electron opens no new windows, so "open it in a tab" would not work there: this
 * does, in both shells.
 */
import { useEffect, useRef, useState } from 'react';
import { useServices } from '../service-client/services-context';
import { DownloadButton } from './download-button';
import { ErrorNotice } from './error-notice';
import { Loading } from './section';
import { viewDataById } from '../../../shared/service-api/endpoints';

/** Shows data record `dataId` (an HTML file) with Close and Download; focus moves to its heading. */
export function ReportFrame({ dataId, filename, onClose }: { dataId: number; filename: string; onClose(): void }) {
  const { client } = useServices();
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);

  useEffect(() => {
    let live = true;
    setSrc(null);
    setError(null);
    client.call(viewDataById, { params: { id: dataId } }).then(
      ({ url }) => live && setSrc(new URL(url, client.baseUrl() ?? location.origin).href),
      (err: unknown) => live && setError(err),
    );
    heading.current?.focus({ preventScroll: true });
    return () => {
      live = false;
    };
  }, [client, dataId]);

  // Below the outputs table: once the report is in (and the page long enough), bring its top into view.
  useEffect(() => {
    if (src !== null || error !== null) section.current?.scrollIntoView({ block: 'start' });
  }, [src, error]);

  return (
    <section
      ref={section}
      className="card report-frame"
      aria-labelledby={`report-${dataId}`}
      data-testid="report-frame"
    >
      <div className="screen-header">
        <h3 id={`report-${dataId}`} ref={heading} tabIndex={-1}>
          Report: {filename}
        </h3>
        <div className="screen-actions">
          <DownloadButton dataId={dataId} filename={filename} />
          <button type="button" className="btn" onClick={onClose}>
            Close report
          </button>
        </div>
      </div>
      {!src && !error && <Loading what="the report" />}
      <ErrorNotice error={error} />
      {src && (
        <iframe
          title={`Report ${filename}`}
          sandbox="allow-scripts"
          referrerPolicy="no-referrer"
          src={src}
          data-testid="report-document"
        />
      )}
    </section>
  );
}

/** Whether an output is a report the app can show (the service's self-contained HTML). */
export function isReport(output: { data_type?: string | null; filename: string }): boolean {
  return output.data_type === 'html' || /\.html?$/i.test(output.filename);
}
