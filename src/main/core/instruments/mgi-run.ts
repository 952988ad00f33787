/**
 * MGI / Complete Genomics DNBSEQ (G400, T7) output, as the public cases and MGI's
 * write-FASTQ step lay it out: `<FLOWCELL>/L0<n>/<FLOWCELL>_L0<n>_<barcode>_<1|2>.fq.gz` per
 * barcode and lane, `<FLOWCELL>_L0<n>_undecoded_<1|2>.fq.gz` for reads no barcode matched,
 * and per lane `<FLOWCELL>_L0<n>.summaryReport.html`, `BarcodeStat.txt`, `SequenceStat.txt`
 * and `*.fq.fqStat.txt`. The summary report is written once the lane's FASTQs are: it is the
 * lane's "done" file (the run has no run-level marker; see docs/instruments.md).
 */
import { basename } from 'node:path';
import type { ScannedFile } from '../files/scan-paths';

/** `<FLOWCELL>_L0<n>_<barcode>_<read>.fq.gz`: MGI's FASTQ name. */
export const MGI_FASTQ_RE = /^([A-Z0-9]+)_L0?(\d)_(.+?)_([12])\.(?:fq|fastq)(?:\.gz)?$/i;

/** The lane folders (holding MGI FASTQs) that have no summary report yet. */
export function mgiLanesPending(files: readonly ScannedFile[]): string[] {
  const lanes = new Map<string, boolean>();
  for (const f of files) {
    const m = MGI_FASTQ_RE.exec(f.name);
    if (m) lanes.set(f.dir, lanes.get(f.dir) ?? false);
  }
  for (const f of files) if (/\.summaryReport\.html$/i.test(f.name) && lanes.has(f.dir)) lanes.set(f.dir, true);
  return [...lanes].filter(([, done]) => !done).map(([dir]) => basename(dir));
}
