/**
 * The demultiplexing job as lanes and the Demultiplexing pipeline hand it to the worker: the
 * engine protocol's job file (protocol.ts) with demultiplexing parameters.
 */
import type { EngineJob } from '../engines/protocol';
import type { AnnotationRow } from '../../shared/annotation/columns';
import type { BarcodeSource } from './plan';

/** Parameters of a demultiplexing job (all optional but the sheet). */
export interface DemuxParameters {
  /** The sheet's rows as `readSheet` returns them... */
  rows?: AnnotationRow[];
  /** ...or a sheet file (xlsx or csv) to read; `files.annotation` or `files.sheet` also work. */
  sheet?: string;
  /** Mismatches allowed (0 or 1); default the largest the barcodes' distances allow, at most 1. */
  mismatches?: number;
  /** Inline layout with UMI positions, for example `NNNXXXXXNN`. */
  layout?: string;
  /** Where the barcodes are: auto (default), inline or header. */
  barcode_source?: BarcodeSource;
  /** gzip outputs; default: like the input. */
  gzip_output?: boolean;
  compression_level?: number;
}

/** A job file for the demultiplexing worker: one input (the lane's reads) in `samples[0]`. */
export type DemuxJob = Omit<EngineJob, 'parameters'> & {
  parameters: DemuxParameters & Record<string, unknown>;
  /** Files of `file` parameters by name (as the execution engine passes them). */
  files?: Record<string, string>;
};

/** The process name the worker reports (one process per lane). */
export const DEMUX_PROCESS = 'demultiplex';
