/**
 * The loud warning of a lane whose reads are mostly undetermined: the share, the most frequent
 * unknown barcodes with their nearest sample, and the usual cause that fits them.
 */
import type { Diagnosis } from '../../../../shared/annotation';
import type { ReportUnknownBarcode } from '../../../../shared/service-api/lanes';

/** An unknown barcode as the lane's report and the barcode check give it. */
export type UnknownBarcode = ReportUnknownBarcode;

const CAUSES: Record<string, string> = {
  'i5-reverse-complement': 'Likely cause: the i5 indexes are reverse-complemented.',
  'i7-reverse-complement': 'Likely cause: the i7 indexes are reverse-complemented.',
  layout: 'Likely cause: the layout is wrong.',
  'barcode-read': 'Likely cause: the barcodes are on the other read.',
};

/** Renders the warning; nothing when fewer than half the reads are undetermined. */
export function UndeterminedWarning({
  fraction,
  unknown,
  diagnosis,
  before,
}: {
  fraction: number;
  unknown: UnknownBarcode[];
  diagnosis: Diagnosis | null;
  /** True before samples are created (the barcode check), false on a finished lane. */
  before: boolean;
}) {
  if (fraction <= 0.5) return null;
  return (
    <div className="notice notice-bad" role="alert" data-testid="undetermined-warning">
      <p>
        <strong>
          {(100 * fraction).toFixed(1)}% of the reads {before ? 'would be' : 'are'} undetermined.
        </strong>{' '}
        {before ? 'Samples created now would get few of their reads.' : 'Most reads went to no sample.'}
      </p>
      {diagnosis ? (
        <p data-testid="undetermined-cause">
          {CAUSES[diagnosis.cause]} {diagnosis.message} (fits {(100 * diagnosis.fraction).toFixed(0)}% of the
          undetermined reads).
        </p>
      ) : (
        <p data-testid="undetermined-cause">
          Neither a reverse-complemented i5 nor another layout explains them: check the sheet&apos;s barcodes and the
          FASTQ.
        </p>
      )}
      {unknown.length > 0 && (
        <table className="grid" data-testid="unknown-nearest">
          <caption>Most frequent unknown barcodes</caption>
          <thead>
            <tr>
              <th scope="col">Barcode</th>
              <th scope="col">Reads</th>
              <th scope="col">Nearest sample</th>
              <th scope="col">Differences</th>
            </tr>
          </thead>
          <tbody>
            {unknown.slice(0, 5).map((u) => (
              <tr key={u.barcode}>
                <td>{u.barcode}</td>
                <td>{u.count.toLocaleString()}</td>
                <td>{u.nearest ?? '—'}</td>
                <td>{u.distance ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
