/** The demultiplexing engine's public surface, for lanes, the pipeline engine and the CLI. */
export { demultiplex, REPORT_FILE, type DemuxInput, type DemuxResult, type DemuxSampleResult } from './demultiplexer';
export { DEMUX_PROCESS, type DemuxJob, type DemuxParameters } from './demux-job';
export { parseMismatches, planFromRows, type BarcodeSource, type DemuxPlan, type PlanOptions } from './plan';
export { DemuxFailedError, runDemuxWorker, type RunDemuxOptions } from './run-demux-worker';
export type { LanePlanOptions, ParsedSheet } from './sheet-parse-messages';
