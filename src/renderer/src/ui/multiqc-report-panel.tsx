/**
 * "MultiQC report" for a project or a lane: asks the service to build one over the outputs the
 * user may view (`POST /api/{projects|lanes}/{id}/multiqc`), which takes tens of seconds while
 * the request waits, then offers to view it in the app (the same frame as an execution's HTML
 * outputs) or download it. A refusal (409: multiqc missing, nothing readable) shows the
 * service's own reason.
 */
import { useEffect, useRef, useState } from 'react';
import { buildLaneMultiqc, buildProjectMultiqc } from '../../../shared/service-api/endpoints';
import type { MultiqcReportResponse } from '../../../shared/service-api/reports';
import { NotOffered, useServiceOffers } from './service-offers';
import { useServices } from '../service-client/services-context';
import { DownloadButton } from './download-button';
import { ErrorNotice } from './error-notice';
import { plural } from './format';
import { ReportFrame } from './report-frame';

const MULTIQC_REFUSED =
  'The report needs completed QC, alignment or variant-calling outputs and MultiQC on the service.';

/** The build button, its progress, and the report once built; `segment` names the route. */
function MultiqcReportPanelBody({ segment, id }: { segment: 'projects' | 'lanes'; id: number }) {
  const { client } = useServices();
  const [busy, setBusy] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [report, setReport] = useState<MultiqcReportResponse | null>(null);
  const [viewing, setViewing] = useState(false);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  // An elapsed-time count, so a long build visibly progresses rather than looking stuck.
  useEffect(() => {
    if (!busy) return;
    setSeconds(0);
    const t = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(t);
  }, [busy]);

  const build = async () => {
    setBusy(true);
    setError(null);
    setReport(null);
    setViewing(false);
    try {
      const endpoint = segment === 'projects' ? buildProjectMultiqc : buildLaneMultiqc;
      const answer = await client.call(endpoint, { params: { id }, body: {} });
      if (live.current) setReport(answer);
    } catch (err) {
      if (live.current) setError(err);
    } finally {
      if (live.current) setBusy(false);
    }
  };

  return (
    <div className="multiqc-panel" data-testid="multiqc-panel">
      <button type="button" className="btn" disabled={busy} aria-busy={busy} onClick={() => void build()}>
        {busy ? 'Building MultiQC report…' : 'MultiQC report'}
      </button>
      {busy && (
        <p className="muted" role="status" data-testid="multiqc-progress">
          MultiQC is reading the outputs; this can take a minute ({seconds} s).
        </p>
      )}
      {/* A refusal here (409) is not a stale page: nothing MultiQC reads yet, or no MultiQC. */}
      <ErrorNotice error={error} remedies={{ CONFLICT: MULTIQC_REFUSED }} />
      {report && (
        <div data-testid="multiqc-result">
          <p role="status">
            MultiQC report ready: {plural(report.samples.length, 'sample')}, {plural(report.inputs, 'file')} from{' '}
            {plural(report.executions.length, 'execution')}.
          </p>
          <div className="screen-actions">
            <button
              type="button"
              className="btn btn-small btn-primary"
              aria-pressed={viewing}
              onClick={() => setViewing(true)}
            >
              View {report.data.filename}
            </button>
            <DownloadButton dataId={report.data.id} filename={report.data.filename} />
          </div>
          {viewing && (
            <ReportFrame dataId={report.data.id} filename={report.data.filename} onClose={() => setViewing(false)} />
          )}
        </div>
      )}
    </div>
  );
}

/** The panel, or where the service builds no MultiQC reports, a note saying so. */
export function MultiqcReportPanel(props: { segment: 'projects' | 'lanes'; id: number }) {
  const offers = useServiceOffers();
  return offers.multiqc ? <MultiqcReportPanelBody {...props} /> : <NotOffered what="MultiQC report" />;
}
