/** One sample: its metadata, its files with downloads, and its sharing. */
import { useServices } from '../../service-client/services-context';
import type { DataRecord, Sample } from '../../service-client/types';
import { DownloadButton } from '../../ui/download-button';
import { ErrorNotice } from '../../ui/error-notice';
import { MultiqcReportPanel } from '../../ui/multiqc-report-panel';
import { formatBytes, formatTime } from '../../ui/format';
import { Loading } from '../../ui/section';
import { SharePanel } from '../../ui/share-panel';
import { unsharedReadsNote } from './shared-reads';
import { useQuery } from '../../ui/use-query';
import { getSamplesById } from '../../../../shared/service-api/endpoints';

/** The sample's files: its reads first, then other files of the sample (the service's order). */
function filesOf(sample: Sample): DataRecord[] {
  return sample.data;
}

/** Loads and shows the sample with the given id. */
/** The name of the lane a sample came from (carried as metadata since issue 19), if any. */
function laneName(metadata: Sample['metadata'] | undefined): string | null {
  const v = metadata?.lane_name;
  return typeof v === 'string' && v ? v : null;
}

export function SampleDetail({ id, onClose }: { id: number; onClose(): void }) {
  const { client } = useServices();
  const q = useQuery(() => client.call(getSamplesById, { params: { id } }), `sample:${id}`);
  return (
    <section className="card" aria-labelledby="sample-detail-title" data-testid="sample-detail">
      <div className="screen-header">
        <h3 id="sample-detail-title">{q.data ? q.data.name : `Sample ${id}`}</h3>
        <div className="screen-actions">
          <button type="button" className="btn btn-small" onClick={onClose}>
            Close details
          </button>
        </div>
      </div>
      {q.loading && <Loading what="the sample" />}
      <ErrorNotice error={q.error} onRetry={q.reload} />
      {q.data && (
        <>
          <h4>Metadata</h4>
          <dl className="facts" data-testid="sample-metadata">
            {Object.entries(q.data.metadata ?? {}).map(([k, v]) => (
              <div key={k} style={{ display: 'contents' }}>
                <dt>{k}</dt>
                <dd>{String(v)}</dd>
              </div>
            ))}
            <dt>Created</dt>
            <dd>{formatTime(q.data.created)}</dd>
          </dl>
          <h4>Files</h4>
          {unsharedReadsNote(q.data) && (
            <p className="notice" data-testid="reads-not-shared">
              {unsharedReadsNote(q.data)}
            </p>
          )}
          <table className="grid">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Type</th>
                <th scope="col">Size</th>
                <th scope="col">Download</th>
              </tr>
            </thead>
            <tbody>
              {filesOf(q.data).map((f) => (
                <tr key={f.id}>
                  <td>{f.filename}</td>
                  <td>{f.data_type}</td>
                  <td>{formatBytes(f.size)}</td>
                  <td>
                    <DownloadButton dataId={f.id} filename={f.filename} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {typeof q.data.lane_id === 'number' && (
            <>
              <h4>Lane {laneName(q.data.metadata) ?? q.data.lane_id}</h4>
              <MultiqcReportPanel segment="lanes" id={q.data.lane_id} />
            </>
          )}
          <SharePanel segment="samples" id={id} canShare={q.data.can_share === true} />
        </>
      )}
    </section>
  );
}
