/**
 * An HTML report (a QC report, a run's report) shown inside the app. The report is a
 * self-contained page from the service; it is fetched with the access token (a plain link
 * could not carry it) and shown in a sandboxed frame without scripts, so it cannot reach the
 * app. Electron opens no new windows, so "open it in a tab" would not work there: this does,
 * in both shells.
 */
import { useEffect, useRef, useState } from 'react';
import { useServices } from '../service-client/services-context';
import { DownloadButton } from './download-button';
import { ErrorNotice } from './error-notice';
import { Loading } from './section';
import { getDataByIdDownload } from '../../../shared/service-api/endpoints';

/** Shows data record `dataId` (an HTML file) with Close and Download; focus moves to its heading. */
export function ReportFrame({ dataId, filename, onClose }: { dataId: number; filename: string; onClose(): void }) {
  const { client } = useServices();
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);

  useEffect(() => {
    let live = true;
    setHtml(null);
    setError(null);
    client.blob(getDataByIdDownload, { params: { id: dataId } }).then(
      ({ blob }) => blob.text().then((t) => live && setHtml(t)),
      (err: unknown) => live && setError(err),
    );
    heading.current?.focus({ preventScroll: true });
    return () => {
      live = false;
    };
  }, [client, dataId]);

  // Below the outputs table: once the report is in (and the page long enough), bring its top into view.
  useEffect(() => {
    if (html !== null || error !== null) section.current?.scrollIntoView({ block: 'start' });
  }, [html, error]);

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
      {!html && !error && <Loading what="the report" />}
      <ErrorNotice error={error} />
      {html && <iframe title={`Report ${filename}`} sandbox="" srcDoc={html} data-testid="report-document" />}
    </section>
  );
}

/** Whether an output is a report the app can show (the service's self-contained HTML). */
export function isReport(output: { data_type?: string | null; filename: string }): boolean {
  return output.data_type === 'html' || /\.html?$/i.test(output.filename);
}
