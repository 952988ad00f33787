/**
 * The files the caller uploaded that are no sample's reads: references, annotations, sheets,
 * loose FASTQ. Without this list a genome dropped on the Uploads screen was visible only in a
 * launch form's picker, with no way to download or delete it.
 */
import { useState } from 'react';
import { deleteDataById, getData } from '../../../../shared/service-api/endpoints';
import type { DataRecord } from '../../../../shared/service-api/data';
import { useServices } from '../../service-client/services-context';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DownloadButton } from '../../ui/download-button';
import { ErrorNotice } from '../../ui/error-notice';
import { formatBytes, formatTime } from '../../ui/format';
import { Pager } from '../../ui/pager';
import { useQuery } from '../../ui/use-query';

const PER_PAGE = 25;
/** The types a technician looks for; any other shows under "All types". */
const TYPES = ['fasta', 'gtf', 'gff3', 'bed', 'fastq', 'xlsx', 'csv'];

/** Renders the list of uploaded files without a sample, with download and delete. */
export function DataFilesPanel() {
  const { client } = useServices();
  const [type, setType] = useState('');
  const [page, setPage] = useState(1);
  const [doomed, setDoomed] = useState<DataRecord | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const query = {
    page,
    per_page: PER_PAGE,
    source: 'upload' as const,
    unassigned: true,
    ...(type ? { data_type: type } : {}),
  };
  const list = useQuery(() => client.call(getData, { query }), `data-files:${JSON.stringify(query)}`);

  const remove = async (record: DataRecord) => {
    setBusy(true);
    setError(null);
    try {
      await client.call(deleteDataById, { params: { id: record.id } });
      setDoomed(null);
      list.reload();
    } catch (err) {
      setDoomed(null);
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="data-files-title" data-testid="data-files">
      <h3 id="data-files-title">Files without a sample</h3>
      <p className="muted">
        References, annotations, sheets and other files you uploaded that are no sample&apos;s reads.
      </p>
      <div className="toolbar">
        <label className="field">
          <span>Type</span>
          <select value={type} onChange={(e) => (setType(e.target.value), setPage(1))}>
            <option value="">All types</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNotice error={list.error ?? error} onRetry={list.error ? list.reload : undefined} />
      {list.data && list.data.items.length === 0 && (
        <p className="muted" data-testid="data-files-empty">
          {type
            ? `No ${type.toUpperCase()} files.`
            : 'None yet. References dropped on the Uploads screen are listed here.'}
        </p>
      )}
      {list.data && list.data.items.length > 0 && (
        <table className="grid" data-testid="data-files-table">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Type</th>
              <th scope="col">Size</th>
              <th scope="col">Owner</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.filename} <span className="muted">#{r.id}</span>
                </td>
                <td>{r.data_type}</td>
                <td>{formatBytes(r.size)}</td>
                <td>{r.group_owner ?? r.owner ?? '—'}</td>
                <td>{formatTime(r.created)}</td>
                <td>
                  <DownloadButton dataId={r.id} filename={r.filename} />{' '}
                  {r.can_edit !== false && (
                    <button type="button" className="btn btn-small" onClick={() => setDoomed(r)}>
                      Delete {r.filename}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && <Pager page={page} perPage={PER_PAGE} count={list.data.count} onPage={setPage} />}
      <ConfirmDialog
        open={doomed !== null}
        title={`Delete ${doomed?.filename ?? ''}?`}
        confirmLabel="Delete the file"
        cancelLabel="Keep it"
        tone="danger"
        busy={busy}
        onCancel={() => setDoomed(null)}
        onConfirm={() => doomed && void remove(doomed)}
      >
        <p>
          The service removes its record and, when no other record has the same bytes, the bytes. Executions that used
          it keep their results; one still queued with it fails when it starts, and a re-run needs the file again.
        </p>
      </ConfirmDialog>
    </section>
  );
}
