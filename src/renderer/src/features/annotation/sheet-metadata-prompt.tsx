/**
 * Organism and Category asked once for the whole sheet (issue 19 item 8): a sheet without the
 * lab's own columns for them (an Illumina SampleSheet, a sheet of names and barcodes) or with
 * empty cells gets one prompt, not one per sample; the chosen value fills every sample row whose
 * cell is empty. Cells the sheet already has are kept: per-sample values read from its columns
 * always win.
 */
import { useState } from 'react';
import { CATEGORY, namedColumn, ORGANISM } from '../../../../shared/annotation';
import { useAppStore } from '../../store';

const blankRow = (r: string[]) => !r.some((v) => v.trim());

/** Renders the prompt while some sample row lacks Organism or Category. */
export function SheetMetadataPrompt({ vocabulary }: { vocabulary: { organisms: string[]; categories: string[] } }) {
  const headers = useAppStore((s) => s.sheetHeaders);
  const rows = useAppStore((s) => s.sheetRows);
  const fillColumn = useAppStore((s) => s.fillColumn);
  const [chosen, setChosen] = useState({ organism: '', category: '' });
  const fields = [
    { column: ORGANISM, key: 'organism' as const, options: vocabulary.organisms },
    { column: CATEGORY, key: 'category' as const, options: vocabulary.categories },
  ].map((f) => {
    const at = headers.findIndex((h) => namedColumn(h) === f.column);
    const missing = rows.filter((r) => !blankRow(r) && !(at < 0 ? '' : (r[at] ?? '')).trim()).length;
    return { ...f, at, missing };
  });
  const wanted = fields.filter((f) => f.missing > 0);
  if (!wanted.length) return null;
  const fill = () => {
    for (const f of wanted) if (chosen[f.key]) fillColumn(f.at < 0 ? null : f.at, f.column, chosen[f.key]);
  };
  return (
    <form
      className="card inline-form"
      data-testid="sheet-metadata-prompt"
      aria-label="Organism and Category for the whole sheet"
      onSubmit={(e) => {
        e.preventDefault();
        fill();
      }}
    >
      <p>
        {wanted.map((f) => `${f.missing} sample${f.missing === 1 ? '' : 's'} without ${f.column}`).join(', ')}: choose
        once for the whole sheet (cells already filled are kept).
      </p>
      {wanted.map((f) => (
        <label className="field" key={f.key}>
          <span>{f.column} (whole sheet)</span>
          <select value={chosen[f.key]} onChange={(e) => setChosen({ ...chosen, [f.key]: e.target.value })}>
            <option value="">Choose…</option>
            {f.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
      ))}
      <button type="submit" className="btn" disabled={!wanted.some((f) => chosen[f.key])}>
        Fill the sheet
      </button>
    </form>
  );
}
