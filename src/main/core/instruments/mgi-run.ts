/**
 * MGI / Complete Genomics DNBSEQ (G400, T7) output: `<FLOWCELL>/L0<n>/` per lane holding
 * `<FLOWCELL>_L0<n>_<barcode>_<1|2>.fq.gz` per barcode (with `_<1|2>.fq.fqStat.txt` and
 * `<FLOWCELL>_L0<n>_<barcode>.report.html`), `<FLOWCELL>_L0<n>_undecoded_<1|2>.fq.gz` for reads
 * no barcode matched (`_read_<1|2>.fq.gz` when the lane was not split), and per lane
 * `<FLOWCELL>_L0<n>.summaryReport.html`, `.heatmapReport.html`, `summaryTable.csv`,
 * `BarcodeStat.txt`, `SequenceStat.txt` and `BioInfo.csv`. Sources: c3g/GenPipes' MGI run
 * processing (the files it waits for and copies from each `L0<n>` folder), AgResearch/gbs_prism
 * (real BioInfo.csv and BarcodeStat.txt files), VIB Nucleomics' MGI_mergeStats (BarcodeStat /
 * SequenceStat columns). The summary report is among the files the lane's basecalling writes last
 * (GenPipes lists it with the FASTQs as the basecall step's outputs): it is the lane's "done"
 * file; the run has no run-level marker (see docs/instruments.md).
 */
import { readFile } from 'node:fs/promises';
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

/** What an MGI lane's `BioInfo.csv` (two columns: key, value) says about the run. */
export interface MgiBioInfo {
  instrument: string | null;
  flowcell: string | null;
  run: string | null;
}

/**
 * Reads BioInfo.csv. Its keys differ by instrument software: `Machine ID`, `Flow Cell ID`,
 * `Sequence start time` on a DNBSEQ-G99, `Machine ID`, `FlowcellID`, `RunName` on a T1+ (the
 * real files AgResearch/gbs_prism tests against); c3g/GenPipes reads the G400's `Read1 Cycles`
 * from the same file in each lane folder.
 */
export function parseMgiBioInfo(text: string): MgiBioInfo {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const comma = line.indexOf(',');
    if (comma > 0)
      values.set(line.slice(0, comma).trim().toLowerCase().replace(/\s+/g, ''), line.slice(comma + 1).trim());
  }
  const get = (...keys: string[]) => keys.map((k) => values.get(k)).find((v) => v) ?? null;
  return {
    instrument: get('machineid'),
    flowcell: get('flowcellid'),
    run: get('runname'),
  };
}

/** Provenance of an MGI run from the first lane's BioInfo.csv, when there is one. */
export async function mgiProvenance(files: readonly ScannedFile[]): Promise<Record<string, string>> {
  const info = files.find((f) => f.name === 'BioInfo.csv');
  if (!info) return {};
  const bio = parseMgiBioInfo(await readFile(info.path, 'utf8').catch(() => ''));
  const out: Record<string, string> = {};
  if (bio.run) out.run_id = bio.run;
  if (bio.instrument) out.instrument = `${bio.instrument} (MGI DNBSEQ)`;
  if (bio.flowcell) out.flowcell = bio.flowcell;
  return out;
}
