/** A finished lane on the Lane screen: reads per sample, undetermined share, mismatches, unknown barcodes, hopping. */
import type { Lane } from '../../../../shared/service-api/lanes';
import { MultiqcReportPanel } from '../../ui/multiqc-report-panel';
import { NotOffered, useServiceOffers } from '../../ui/service-offers';
import { UndeterminedWarning } from './undetermined-warning';

/** A finished lane: reads per sample, undetermined share, mismatches, unknown barcodes, hopping. */
export function LaneResult({ lane, onOpen }: { lane: Lane; onOpen(): void }) {
  const r = lane.report ?? null;
  const offers = useServiceOffers();
  const pct = (n: number) => `${(100 * n).toFixed(2)}%`;
  return (
    <div data-testid="lane-result">
      {r && (
        <UndeterminedWarning
          fraction={r.undetermined_fraction}
          unknown={r.top_unknown}
          diagnosis={r.diagnosis}
          before={false}
        />
      )}
      {offers.laneReads && (
        <p data-testid="lane-totals">
          {lane.total_reads?.toLocaleString() ?? '—'} reads, {lane.undetermined_reads?.toLocaleString() ?? '—'}{' '}
          undetermined
          {r && ` (${pct(r.undetermined_fraction)})`}
          {r &&
            `; mismatches allowed ${r.segments.map((s, i) => `${r.segments.length > 1 ? `${s} ` : ''}${r.segment_mismatches[i]} (at most ${r.max_mismatches[i]})`).join(', ')}`}
          {r?.layout && `; layout ${r.layout}`}
        </p>
      )}
      {r?.hopping && (
        <p data-testid="lane-hopping">
          {r.segments[0] === 'i7' ? 'Index hopping' : "Unexpected 5'+3' pairs"}: {r.hopping.reads.toLocaleString()}{' '}
          reads ({pct(r.hopping.fraction)})
          {r.hopping.top[0] && `, most often ${r.hopping.top[0].barcode} (${r.hopping.top[0].samples.join(' × ')})`}
        </p>
      )}
      {!offers.laneReads && <NotOffered what="Reads per sample and the demultiplexing report" />}
      <table className="grid" data-testid="lane-samples">
        <caption className="visually-hidden">Reads per sample</caption>
        <thead>
          <tr>
            <th scope="col">Sample</th>
            <th scope="col">Barcode</th>
            <th scope="col">Reads</th>
            <th scope="col">One mismatch</th>
            <th scope="col">Two mismatches</th>
          </tr>
        </thead>
        <tbody>
          {(lane.samples ?? []).map((s) => {
            const rs = r?.samples.find((x) => x.name === s.name);
            return (
              <tr key={s.name}>
                <td>
                  {s.name}
                  {s.sample_id === null && <span className="field-message"> no sample created</span>}
                </td>
                <td>{s.barcode}</td>
                <td>{s.reads?.toLocaleString() ?? '—'}</td>
                <td>{rs?.one_mismatch.toLocaleString() ?? '—'}</td>
                <td>{rs?.two_mismatches.toLocaleString() ?? '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {r && r.top_unknown.length > 0 && (
        <details>
          <summary>Most frequent unknown barcodes</summary>
          <ol data-testid="lane-unknown">
            {r.top_unknown.slice(0, 10).map((u) => (
              <li key={u.barcode}>
                {u.barcode}: {u.count.toLocaleString()} reads
                {u.nearest && ` (nearest ${u.nearest}, ${u.distance} apart)`}
              </li>
            ))}
          </ol>
        </details>
      )}
      <button type="button" className="btn" onClick={onOpen}>
        Open the samples
      </button>
      {/* Once the lane's samples have been through QC, MultiQC summarises the lane. */}
      <MultiqcReportPanel segment="lanes" id={lane.id} />
    </div>
  );
}
