/**
 * The files an instrument writes beside its reads: logs, InterOp metrics, reports, raw signal.
 * Dropped with a run (or with BCL Convert's output folder alone) they are recognised and left
 * out quietly; only files nobody expects in a run are named one by one.
 * Sources: Illumina's run folder descriptions (NovaSeq X "Output Folder Structure", NextSeq
 * 500/550 "Sequencing Output Folder Structure", MiSeq "File paths": InterOp/, Logs/, RTALogs/,
 * Thumbnail_Images/, Recipe/, Config/, RunInfo.xml, RunParameters.xml, RTAConfiguration.xml,
 * *.bcl, *.cbcl, *.filter, *.locs); BCL Convert's "Output Files" (Logs/Errors.log, Info.log,
 * Warnings.log, FastqComplete.txt, Reports/*.csv); bcl2fastq (Stats/, Reports/html); MinKNOW's
 * output structure (pod5/, fast5_*, sequencing_summary_*, report_*, final_summary_*, and the
 * per-run metrics files); Element AVITI (RunParameters.json, RunStats.json, Samples/*.json, and
 * Bases2Fastq's reports as docs.elembio.io's "Example Output Directories" names them: Metrics.csv,
 * `<Project>_metrics.csv`, `<Project>_index_assignment.csv`, info/, and the `.fastq.gz.gzi`
 * indexes of --bgzf-compression);
 * MGI (per lane: *.summaryReport.html, *.heatmapReport.html, summaryTable.csv, BarcodeStat.txt,
 * SequenceStat.txt, BioInfo.csv; per barcode: *.report.html, *.fq.fqStat.txt; as c3g/GenPipes'
 * MGI run processing copies them; BasecallQC.txt, FileName.txt, finish.signal, jsondata.txt and
 * SequencingInfo.csv as a lab's DNBSEQ backup script lists a lane folder's files).
 */
const INSTRUMENT_DIRS =
  /(^|[\\/])(InterOp|Logs|RTALogs|Reports|Stats|Thumbnail_Images|Recipe|Config|Images|Autocenter|Autofocus|FocusModelGeneration|InstrumentAnalyticsLogs|Calibration|pod5|pod5_skip|pod5_pass|pod5_fail|fast5_pass|fast5_fail|fast5_skip|other_reports|Data[\\/]Intensities)([\\/]|$)/;

const INSTRUMENT_NAMES = [
  /\.(log|xml|bin|html?|json|cfg|cbcl|bcl|bcl\.gz|bcl\.bgzf|bci|filter|locs|clocs|pod5|fast5|md|md5|zip|jpg|png|tif)$/i,
  /^(RTAComplete|CopyComplete|FastqComplete|Secondary_Analysis_Complete|QueuedForAnalysis|Checkpoint|SequenceComplete|SequencingComplete|RunCompletionStatus|ImageAnalysis_Netcopy_complete.*|Basecalling_Netcopy_complete.*)\.(txt|xml)$/i,
  /^(sequencing_summary|final_summary|report|pore_activity|throughput|duty_time|barcode_alignment|output_hash|sample_sheet)_.*\.(txt|csv|json|html|md|tsv)$/i,
  /^(BarcodeStat|SequenceStat|TagStat|BasecallQC|FileName|jsondata|.*\.summaryReport|.*\.fqStat|.*\.fq\.fqStat)\.(txt|html)$/i,
  /^(BioInfo|summaryTable|SequencingInfo)\.csv$|^finish\.signal$/i,
  /^(fastq_list|Demultiplex_Stats|Top_Unknown_Barcodes|Adapter_Metrics|Index_Hopping_Counts|Quality_Metrics|Demultiplex_Tile_Stats|RunInfo|IndexAssignment|UnassignedSequences)\.csv$/i,
  /^(Metrics|.+_metrics|.+_index_assignment|.+_IndexAssignment)\.csv$|\.(fastq|fq)\.gz\.gzi$/i,
];

/** True for a file an instrument writes beside its reads (never uploaded, never warned about). */
export function isInstrumentFile(path: string, name: string): boolean {
  return INSTRUMENT_DIRS.test(path.slice(0, path.length - name.length)) || INSTRUMENT_NAMES.some((re) => re.test(name));
}
