/**
 * BCL Convert / DRAGEN reports, read by column name as Illumina's BCL Convert documentation
 * describes them ("Metrics Output", support-docs.illumina.com/SW/BCL_Convert): the Reports
 * folder's Demultiplex_Stats.csv (per lane and Sample_ID, Undetermined included as one sample:
 * `Lane,SampleID,Sample_Project,Index,# Reads,...`) and Top_Unknown_Barcodes.csv
 * (`Lane,index,index2,# Reads,% of Unknown Barcodes,% of All Reads`).
 */
import type { RunReport } from '../../../shared/desktop-api/contract';
import { csvTable } from './csv-table';

type DemuxRow = RunReport['demux_stats'][number];
type UnknownRow = RunReport['top_unknown'][number];

function count(v: string | undefined): number {
  const n = Number((v ?? '').replace(/,/g, ''));
  return Number.isFinite(n) ? n : 0;
}

/** The rows of Demultiplex_Stats.csv. */
export function readDemultiplexStats(text: string): DemuxRow[] {
  return csvTable(text)
    .rows.filter((r) => r.sampleid)
    .map((r) => ({
      lane: r.lane ? count(r.lane) : null,
      sample: r.sampleid!,
      project: r.sample_project || null,
      index: r.index || null,
      reads: count(r['# reads']),
    }));
}

/** The rows of Top_Unknown_Barcodes.csv, at most `limit` (the file lists up to 100 per lane). */
export function readTopUnknownBarcodes(text: string, limit = 20): UnknownRow[] {
  return csvTable(text)
    .rows.map((r) => ({
      lane: r.lane ? count(r.lane) : null,
      index: [r.index, r.index2].filter(Boolean).join('+'),
      reads: count(r['# reads']),
    }))
    .filter((r) => r.index)
    .slice(0, limit);
}

/** Reads assigned to Undetermined and their fraction of all reads, from the statistics. */
export function undeterminedShare(rows: DemuxRow[]): { reads: number; fraction: number } | null {
  if (!rows.length) return null;
  const total = rows.reduce((s, r) => s + r.reads, 0);
  const reads = rows.filter((r) => /^undetermined$/i.test(r.sample)).reduce((s, r) => s + r.reads, 0);
  return { reads, fraction: total ? reads / total : 0 };
}
