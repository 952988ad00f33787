/**
 * The lane's demultiplexing fields: layout, mismatches, the read that carries inline barcodes,
 * and index reads as files (I1, I2). Each shows what the sheet implies: the layout detected
 * from the Barcode column and the most mismatches the barcodes' distances allow.
 */
import type { AnnotationReport } from '../../../../shared/annotation';
import { NotOffered, useServiceOffers } from '../../ui/service-offers';

export interface DemuxSettings {
  /** Empty: detected from the sheet. */
  layout: string;
  /** Empty: automatic; else "0", "1", "2" or per segment "1,0". */
  mismatches: string;
  barcodeRead: 1 | 2;
  index1: File | null;
  index2: File | null;
}

export const DEFAULT_SETTINGS: DemuxSettings = {
  layout: '',
  mismatches: '',
  barcodeRead: 1,
  index1: null,
  index2: null,
};

/** The mismatches field as the validator takes it (undefined = automatic, null = unreadable). */
export function parsedMismatches(text: string): number[] | undefined | null {
  const t = text.trim();
  if (!t) return undefined;
  const parts = t.split(',').map((p) => p.trim());
  if (parts.length > 2 || parts.some((p) => !/^[0-9]$/.test(p))) return null;
  return parts.map(Number);
}

function describeDesign(report: AnnotationReport | null): string {
  const d = report?.design;
  if (!d) return 'none yet (the sheet has no usable barcodes)';
  if (d.kind === 'index') return 'dual indexes (i7+i5) from the read header or index reads';
  if (d.kind === 'plain') {
    const lengths = d.barcodes.map((b) => b.parts[0]!.bases.length);
    const [lo, hi] = [Math.min(...lengths), Math.max(...lengths)];
    return `plain barcodes of ${lo === hi ? lo : `${lo}-${hi}`} bases (read header, or the read's first bases)`;
  }
  return d.layout ?? '';
}

/** Renders the fields; `paired` says whether read 2 is chosen. */
export function DemuxSettingsFields({
  settings,
  onChange,
  report,
  paired,
}: {
  settings: DemuxSettings;
  onChange(next: DemuxSettings): void;
  report: AnnotationReport | null;
  paired: boolean;
}) {
  const design = report?.design ?? null;
  const offers = useServiceOffers();
  const max = report?.maxMismatches ?? [];
  const used = report?.segmentMismatches ?? [];
  const segments = design?.segments ?? [];
  const allowed = segments.length
    ? segments.map((s, i) => `${segments.length > 1 ? `${s} ` : ''}${max[i] ?? 0}`).join(', ')
    : '—';
  const inUse = segments.length
    ? segments.map((s, i) => `${segments.length > 1 ? `${s} ` : ''}${used[i] ?? 0}`).join(', ')
    : '—';
  const mismatchesBad = parsedMismatches(settings.mismatches) === null;
  const set = (patch: Partial<DemuxSettings>) => onChange({ ...settings, ...patch });
  return (
    <fieldset className="card" data-testid="demux-settings">
      <legend>Demultiplexing</legend>
      <p className="muted" data-testid="detected-layout">
        Detected from the sheet: <strong>{describeDesign(report)}</strong>
      </p>
      <div className="toolbar">
        <label className="field">
          <span>Layout</span>
          <input
            value={settings.layout}
            // Not a value: empty means "the detected layout", which the placeholder names as such.
            placeholder={design?.layout ? `empty: detected ${design.layout}` : 'empty: as detected'}
            aria-describedby="layout-help"
            data-testid="layout-input"
            spellCheck={false}
            onChange={(e) => set({ layout: e.target.value.toUpperCase() })}
          />
          <span id="layout-help" className="field-help">
            Leave empty to use the detected layout. N = UMI base, X = barcode base; ...XXXXXXNNNN for 3&apos; barcodes,
            NNNXXXXXXNN...XXXXXXNNNN for both ends.
          </span>
        </label>
        <label className="field">
          <span>Mismatches</span>
          <input
            value={settings.mismatches}
            placeholder={`automatic (${inUse})`}
            aria-describedby="mismatches-help"
            aria-invalid={mismatchesBad || undefined}
            data-testid="mismatches-input"
            inputMode="numeric"
            onChange={(e) => set({ mismatches: e.target.value })}
          />
          <span id="mismatches-help" className="field-help" data-testid="mismatches-allowed">
            In use: {inUse}. The barcodes allow at most: {allowed}. One count, or one per index or end like 1,0.
          </span>
          {mismatchesBad && (
            <span className="field-message" role="alert">
              Write 0, 1 or 2, or two counts like 1,0
            </span>
          )}
        </label>
        {paired && design?.kind !== 'index' && (
          <label className="field">
            <span>Barcodes on</span>
            <select
              value={settings.barcodeRead}
              data-testid="barcode-read"
              onChange={(e) => set({ barcodeRead: e.target.value === '2' ? 2 : 1 })}
            >
              <option value={1}>read 1</option>
              <option value={2}>read 2</option>
            </select>
          </label>
        )}
        {design?.kind !== 'inline' && !offers.indexReads && <NotOffered what="Index read files (I1/I2)" />}
        {design?.kind !== 'inline' && offers.indexReads && (
          <>
            <label className="field">
              <span>Index read 1 (I1, optional)</span>
              <input
                type="file"
                accept=".fastq,.fq,.gz"
                data-testid="open-index1"
                onChange={(e) => set({ index1: e.target.files?.[0] ?? null })}
              />
            </label>
            <label className="field">
              <span>Index read 2 (I2, optional)</span>
              <input
                type="file"
                accept=".fastq,.fq,.gz"
                data-testid="open-index2"
                onChange={(e) => set({ index2: e.target.files?.[0] ?? null })}
              />
            </label>
          </>
        )}
      </div>
    </fieldset>
  );
}
