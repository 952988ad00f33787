/** Shows the check of the sheet's barcodes against the first reads, with the lane's layout and mismatches. */
import { useState } from 'react';
import type { BarcodeDesign } from '../../../../shared/annotation';
import { ErrorNotice } from '../../ui/error-notice';
import { CHECK_READS, runBarcodeCheck, type BarcodeCheck, type CheckFiles } from './barcode-check';
import { UndeterminedWarning } from './undetermined-warning';

const WHERE: Record<BarcodeCheck['location'], string> = {
  inline: 'inside the reads',
  header: 'in the read headers',
  'index-reads': 'in the index reads (I1, I2)',
};

/** Runs the check on demand for the chosen files and the sheet's current barcode design. */
export function BarcodeCheckPanel({
  files,
  design,
  mismatches,
  barcodeRead,
  pending = false,
}: {
  files: CheckFiles | null;
  design: BarcodeDesign | null;
  mismatches: readonly number[];
  barcodeRead: 1 | 2;
  /** The sheet (and the layout typed) is being checked: the design is about to change. */
  pending?: boolean;
}) {
  const [result, setResult] = useState<BarcodeCheck | null>(null);
  // A result belongs to the design, mismatches and read it was made with: once any changes
  // (a new layout typed), it is gone rather than shown as if it were the new one's.
  const inputs = JSON.stringify([design, mismatches, barcodeRead]);
  const [resultFor, setResultFor] = useState(inputs);
  if (resultFor !== inputs) {
    setResultFor(inputs);
    setResult(null);
  }
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (!files || !design) return;
    setBusy(true);
    setError(null);
    try {
      setResult(await runBarcodeCheck(files, design, mismatches, barcodeRead));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const why = !files
    ? 'Choose the FASTQ first.'
    : pending
      ? 'Reading the sheet and layout…'
      : !design
        ? 'The sheet has no usable barcodes yet.'
        : null;
  return (
    <section className="card" aria-labelledby="barcode-check-title" data-testid="barcode-check">
      <h3 id="barcode-check-title">Barcodes in the reads</h3>
      <button type="button" className="btn" disabled={busy || why !== null} onClick={() => void run()}>
        {busy ? 'Reading…' : `Check the first ${CHECK_READS.toLocaleString()} reads`}
      </button>
      {why && <span className="field-help"> {why}</span>}
      <ErrorNotice error={error} />
      {result && (
        <>
          <p data-testid="barcode-check-summary">
            {result.assigned.toLocaleString()} of {result.readsScanned.toLocaleString()} reads match a sample (
            {mismatches.join(',')} mismatch{mismatches.length === 1 && mismatches[0] === 1 ? '' : 'es'} allowed,
            barcodes {WHERE[result.location]}).
            {result.hopped > 0 && ` ${result.hopped.toLocaleString()} carry the barcodes of two different samples.`}
          </p>
          {result.detected && (
            <p className="notice" data-testid="barcode-detected">
              Most reads carry no barcode where the sheet puts them. The upload finds where they are from the reads, as
              here: {result.detected.description}, where {result.detected.assigned.toLocaleString()} of the first{' '}
              {result.detected.sampled.toLocaleString()} reads match a sample (the counts below are from there). If the
              reads carry UMI bases beside the barcodes, give the layout so that they are kept as UMIs.
            </p>
          )}
          {result.threePrime && <ThreePrimeNote check={result} />}
          <UndeterminedWarning
            fraction={result.undeterminedFraction}
            unknown={result.unknown.map((u) => ({ ...u, count: u.reads }))}
            diagnosis={result.diagnosis}
            before
          />
          <table className="grid" data-testid="barcode-expected">
            <caption className="visually-hidden">Reads per sample</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Sample</th>
                <th scope="col">Barcode</th>
                <th scope="col">Reads</th>
                <th scope="col">With mismatches</th>
              </tr>
            </thead>
            <tbody>
              {result.samples.map((s) => (
                <tr key={s.row} className={s.reads === 0 ? 'row-invalid' : undefined}>
                  <td>{s.row}</td>
                  <td>{s.sample}</td>
                  <td>{s.barcode}</td>
                  <td>{s.reads.toLocaleString()}</td>
                  <td>{s.mismatched.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h4>Most frequent unknown barcodes</h4>
          <ol data-testid="barcode-unknown">
            {result.unknown.map((u) => (
              <li key={u.barcode}>
                {u.barcode}: {u.reads.toLocaleString()} {u.reads === 1 ? 'read' : 'reads'}
                {u.nearest && ` (nearest ${u.nearest}, ${u.distance} apart)`}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

/** Where the 3' barcodes were read, and the reads where they cannot be (as the upload reads them). */
function ThreePrimeNote({ check }: { check: BarcodeCheck }) {
  const { adapter, threeOnRead2 } = check.threePrime!;
  const hidden = check.readsScanned - check.readable;
  return (
    <p data-testid="barcode-check-three-prime">
      {threeOnRead2
        ? "The 3' barcodes are read at the start of read 2 (reverse-complemented)."
        : adapter
          ? `The 3' barcodes are read right before the adapter ${adapter}.`
          : "The 3' barcodes are read at the end of the reads."}
      {adapter &&
        hidden > 0 &&
        ` ${hidden.toLocaleString()} reads show no adapter: their insert runs past the read's end, so their 3' barcode cannot be read, and the upload leaves them undetermined too; the undetermined share is of the other ${check.readable.toLocaleString()}.`}
    </p>
  );
}
