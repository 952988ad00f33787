/**
 * The demultiplexing job as lanes and the Demultiplexing pipeline hand it to the worker: the
 * engine protocol's job file (protocol.ts) with demultiplexing parameters.
 */
import type { EngineJob } from '../../engines/protocol';
import type { AnnotationRow } from '../../../shared/annotation/columns';
import type { BarcodeSource } from './plan';

/** Parameters of a demultiplexing job (all optional but the sheet). */
export interface DemuxParameters {
  /** The sheet's rows as `readSheet` returns them... */
  rows?: AnnotationRow[];
  /** ...or a sheet file (xlsx or csv) to read; `files.annotation` or `files.sheet` also work. */
  sheet?: string;
  /**
   * Mismatches allowed (0 to 2), one count or one per segment (`[i7, i5]`, `[5', 3']`, or "1,0");
   * default the largest the barcodes' distances allow, at most 1.
   */
  mismatches?: number | number[] | string;
  /** Mismatches of the second segment (i5 or 3'), when `mismatches` is one count. */
  mismatches_index2?: number;
  /** Inline layout with UMI positions, for example `NNNXXXXXNN`, `...XXXXXXNNNN`, `NNNXXXXXNN...XXXXXXNNNN`. */
  layout?: string;
  /** Where the barcodes are: auto (default), inline, header or index-reads. */
  barcode_source?: BarcodeSource;
  /** The read that carries inline barcodes in a paired lane (default 1). */
  barcode_read?: 1 | 2;
  /**
   * The placement is the lane's word (default: barcode_source is not auto): use it, and only check
   * it; otherwise it is chosen from the first reads.
   */
  placement_given?: boolean;
  /** The adapter a 3' barcode sits before; default: a known adapter found in the reads. */
  adapter?: string;
  /** gzip outputs; default: like the input. */
  gzip_output?: boolean;
  compression_level?: number;
}

/**
 * A job file for the demultiplexing worker: one input (the lane's reads) in `samples[0]`; index
 * reads as files come in `files.index_read1` / `files.index_read2`.
 */
export type DemuxJob = Omit<EngineJob, 'parameters'> & {
  parameters: DemuxParameters & Record<string, unknown>;
  /** Files of `file` parameters by name (as the execution engine passes them). */
  files?: Record<string, string>;
};

/** The process name the worker reports (one process per lane). */
export const DEMUX_PROCESS = 'demultiplex';
