/** Shows the check of the sheet's barcodes against the first reads of the chosen FASTQ. */
import { useState } from 'react';
import type { BarcodeDesign } from '../../../../shared/annotation';
import { ErrorNotice } from '../../ui/error-notice';
import { checkBarcodes, firstReads, type BarcodeCheck } from './barcode-check';

const READS = 20_000;

/** Runs the check on demand for `fastq` and the sheet's current barcode design. */
export function BarcodeCheckPanel({ fastq, design }: { fastq: File | null; design: BarcodeDesign | null }) {
  const [result, setResult] = useState<BarcodeCheck | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (!fastq || !design) return;
    setBusy(true);
    setError(null);
    try {
      setResult(checkBarcodes(await firstReads(fastq, READS), design));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const why = !fastq ? 'Choose the FASTQ first.' : !design ? 'The sheet has no usable barcodes yet.' : null;
  return (
    <section className="card" aria-labelledby="barcode-check-title" data-testid="barcode-check">
      <h3 id="barcode-check-title">Barcodes in the reads</h3>
      <button type="button" className="btn" disabled={busy || why !== null} onClick={() => void run()}>
        {busy ? 'Reading…' : `Check the first ${READS.toLocaleString()} reads`}
      </button>
      {why && <span className="field-help"> {why}</span>}
      <ErrorNotice error={error} />
      {result && (
        <>
          <p>
            {result.assigned.toLocaleString()} of {result.readsScanned.toLocaleString()} reads match a sheet barcode
            exactly.
          </p>
          {result.reverseComplementSuspected && (
            <p className="notice notice-warn" role="alert" data-testid="rc-suspected">
              More reads carry the reverse complements of the sheet's barcodes than the barcodes themselves: the index
              orientation (often i5) is probably reversed in the sheet.
            </p>
          )}
          <table className="grid" data-testid="barcode-expected">
            <caption className="visually-hidden">Expected barcodes</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Sample</th>
                <th scope="col">Barcode</th>
                <th scope="col">Reads</th>
                <th scope="col">Reverse complement reads</th>
              </tr>
            </thead>
            <tbody>
              {result.samples.map((s) => (
                <tr key={s.row} className={s.reads === 0 ? 'row-invalid' : undefined}>
                  <td>{s.row}</td>
                  <td>{s.sample}</td>
                  <td>{s.barcode}</td>
                  <td>{s.reads.toLocaleString()}</td>
                  <td>{s.reverseComplementReads.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h4>Most frequent unknown barcodes</h4>
          <ol data-testid="barcode-unknown">
            {result.unknown.map((u) => (
              <li key={u.barcode}>
                {u.barcode}: {u.reads.toLocaleString()} reads
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
