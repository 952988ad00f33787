/**
 * The samples of one page with what a technician checks before analysing them: reads (from
 * the lane's demultiplexing counts, or for uploaded samples from their newest QC run), size on
 * the service, where they came from, and a box to select every sample on the page at once.
 */
import { useEffect, useRef } from 'react';
import { formatHash } from '../../store/route';
import { useServices } from '../../service-client/services-context';
import { NotOffered, useServiceOffers } from '../../ui/service-offers';
import type { Sample } from '../../service-client/types';
import { formatBytes, formatTime } from '../../ui/format';
import { useQuery } from '../../ui/use-query';
import { getLanesById, getSamplesQc } from '../../../../shared/service-api/endpoints';

const sizeOf = (s: Sample) => (s.data ?? []).reduce((sum, d) => sum + (d.size ?? 0), 0);

/** Read counts of the samples on the page that came from lanes, by sample id. */
function useLaneReads(samples: Sample[]): Map<number, number> {
  const { client } = useServices();
  const laneIds = [...new Set(samples.map((s) => s.lane_id).filter((x): x is number => typeof x === 'number'))];
  const key = laneIds.join(',');
  const lanes = useQuery(
    () => Promise.all(laneIds.map((id) => client.call(getLanesById, { params: { id } }).catch(() => null))),
    `lane-reads:${key}`,
  );
  const reads = new Map<number, number>();
  for (const lane of lanes.data ?? [])
    for (const x of lane?.samples ?? []) if (x.sample_id !== null && x.reads !== null) reads.set(x.sample_id, x.reads);
  return reads;
}

/**
 * Read counts of the page's uploaded samples from their newest QC run (uploads are not counted
 * on arrival: that would read every byte of a large file once more), with the run's id.
 */
function useQcReads(samples: Sample[], offered: boolean): Map<number, { reads: number; run: number }> {
  const { client } = useServices();
  const ids = offered ? samples.filter((s) => typeof s.lane_id !== 'number').map((s) => s.id) : [];
  const key = ids.join(',');
  const qc = useQuery(
    () => (ids.length ? client.call(getSamplesQc, { query: { ids: key } }).catch(() => null) : Promise.resolve(null)),
    `samples-qc:${key}`,
  );
  const reads = new Map<number, { reads: number; run: number }>();
  for (const row of qc.data?.samples ?? [])
    if (row.sample_id !== null && row.reads !== null && row.execution_id !== null)
      reads.set(row.sample_id, { reads: row.reads, run: row.execution_id });
  return reads;
}

/** Renders the table. */
export function SamplesTable(props: {
  samples: Sample[];
  selected: number[];
  onToggle(id: number): void;
  onSelectAll(ids: number[], on: boolean): void;
  onOpen(id: number): void;
}) {
  const { samples, selected } = props;
  const reads = useLaneReads(samples);
  const offers = useServiceOffers();
  const qcReads = useQcReads(samples, offers.qc);
  const ids = samples.map((s) => s.id);
  const chosen = ids.filter((id) => selected.includes(id)).length;
  const all = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (all.current) all.current.indeterminate = chosen > 0 && chosen < ids.length;
  }, [chosen, ids.length]);
  return (
    <table className="grid" data-testid="samples-table">
      <thead>
        <tr>
          <th scope="col">
            <input
              ref={all}
              type="checkbox"
              aria-label="Select all samples on this page"
              data-testid="select-all"
              checked={ids.length > 0 && chosen === ids.length}
              onChange={(e) => props.onSelectAll(ids, e.target.checked)}
            />
          </th>
          <th scope="col">Name</th>
          <th scope="col">Organism</th>
          <th scope="col">Category</th>
          <th scope="col" className="num">
            Reads
          </th>
          <th scope="col" className="num">
            Size
          </th>
          <th scope="col">Source</th>
          <th scope="col">Owner</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {samples.map((s) => (
          <tr key={s.id}>
            <td>
              <input
                type="checkbox"
                aria-label={`Select ${s.name}`}
                checked={selected.includes(s.id)}
                onChange={() => props.onToggle(s.id)}
              />
            </td>
            <td>
              <a
                href={formatHash('samples', { id: s.id })}
                className="link-button"
                onClick={(e) => {
                  e.preventDefault();
                  props.onOpen(s.id);
                }}
              >
                {s.name}
              </a>
            </td>
            <td>{String(s.metadata?.Organism ?? s.metadata?.organism ?? '—')}</td>
            <td>{String(s.metadata?.Category ?? s.metadata?.category ?? '—')}</td>
            <td className="num" data-testid="sample-reads">
              {reads.has(s.id) ? (
                reads.get(s.id)!.toLocaleString()
              ) : qcReads.has(s.id) ? (
                <span
                  title={`Counted by quality control (execution ${qcReads.get(s.id)!.run})${s.paired ? ': read pairs' : ''}`}
                >
                  {qcReads.get(s.id)!.reads.toLocaleString()}
                </span>
              ) : offers.laneReads ? (
                <span title="Not counted yet: a lane's demultiplexing counts its samples; for uploaded reads, run FASTQ Quality Control">
                  —
                </span>
              ) : (
                <NotOffered what="Reads" inline />
              )}
            </td>
            {/* A service that lists samples without their files leaves the size to the sample's page. */}
            <td className="num">{s.data ? formatBytes(sizeOf(s)) : <NotOffered what="Size in the list" inline />}</td>
            <td>
              {typeof s.lane_id === 'number' ? (
                <span>lane {typeof s.metadata?.lane_name === 'string' ? s.metadata.lane_name : s.lane_id}</span>
              ) : (
                <span className="muted">{s.paired ? 'uploaded, paired' : 'uploaded'}</span>
              )}
              {typeof s.metadata?.Run === 'string' && <div className="muted">run {s.metadata.Run}</div>}
            </td>
            <td>{s.group_owner ? `group ${s.group_owner}` : (s.owner ?? '—')}</td>
            <td>{formatTime(s.created)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
