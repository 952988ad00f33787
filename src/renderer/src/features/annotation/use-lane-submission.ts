/**
 * Submitting a lane, the use case behind the submit card: the barcode check on the first reads
 * before anything is uploaded, the multipart form (the sheet as .xlsx, the multiplexed FASTQ,
 * index reads, layout, mismatches, barcode read) to `POST /api/upload/multiplexed`, the
 * service's verdicts (409 ANNOTATION_WARNINGS to confirm, INVALID_ANNOTATION rows back onto the
 * sheet), and following the lane through demultiplexing.
 */
import { useEffect, useState } from 'react';
import type { BarcodeDesign, Diagnosis, Issue } from '../../../../shared/annotation';
import { multipart, type FilePart } from '../../../../shared/service-client/multipart';
import { ServiceError } from '../../../../shared/service-client/service-error';
import { useServices } from '../../service-client/services-context';
import { useAppStore } from '../../store';
import { MOSTLY_UNDETERMINED, runBarcodeCheck, type BarcodeCheck } from './barcode-check';
import type { DemuxSettings } from './demux-settings';
import type { UnknownBarcode } from './undetermined-warning';

export interface Lane {
  id: number;
  name: string;
  status: string;
  error?: string | null;
  samples?: Array<{ name: string; barcode?: string; sample_id: number | null; reads: number | null }>;
  total_reads?: number | null;
  undetermined_reads?: number | null;
  warnings?: Issue[];
  report?: LaneReport | null;
}

/** The demultiplexing report a finished lane carries. */
export interface LaneReport {
  layout: string | null;
  segments: string[];
  segment_mismatches: number[];
  max_mismatches: number[];
  total_reads: number;
  undetermined_reads: number;
  undetermined_fraction: number;
  samples: Array<{ name: string; barcode: string; reads: number; one_mismatch: number; two_mismatches: number }>;
  top_unknown: UnknownBarcode[];
  hopping: {
    reads: number;
    fraction: number;
    top: Array<{ barcode: string; count: number; samples: string[] }>;
  } | null;
  diagnosis: Diagnosis | null;
}

/** What a lane is made of when it is submitted. */
export interface LaneInput {
  name: string;
  fastq: File;
  read2: File | null;
  settings: DemuxSettings;
  /** The sheet as .xlsx. */
  workbook: Blob;
  ignoreWarnings: boolean;
}

/** The multipart form of `POST /api/upload/multiplexed`. */
export function laneForm(input: LaneInput) {
  const { fastq, read2, settings } = input;
  const part = (field: string, content: Blob, filename: string): FilePart<Blob> => ({
    field,
    filename,
    content,
    type: content.type || undefined,
  });
  const files = [part('annotation', input.workbook, 'annotation.xlsx'), part('file', fastq, fastq.name)];
  if (read2) files.push(part('file2', read2, read2.name));
  if (settings.index1) files.push(part('index1', settings.index1, settings.index1.name));
  if (settings.index2) files.push(part('index2', settings.index2, settings.index2.name));
  return multipart(
    {
      name: input.name,
      ignore_warnings: input.ignoreWarnings ? 'true' : undefined,
      layout: settings.layout.trim() || undefined,
      mismatches: settings.mismatches.trim() || undefined,
      barcode_read: settings.barcodeRead === 2 && read2 ? '2' : undefined,
    },
    files,
  );
}

export interface LaneSubmissionInput {
  fastq: File | null;
  read2: File | null;
  settings: DemuxSettings;
  design: BarcodeDesign | null;
  /** Mismatches per segment as the sheet rules resolve them. */
  mismatches: readonly number[];
  /** The sheet as .xlsx (into the service's template when it has no workbook of its own). */
  buildWorkbook(): Promise<Blob>;
  onServiceIssues(issues: Issue[]): void;
}

/** The submission's state, and `submit`: `checked` once the barcode check was seen (or skipped). */
export function useLaneSubmission(input: LaneSubmissionInput) {
  const { client } = useServices();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [warnings, setWarnings] = useState<Issue[] | null>(null);
  const [lane, setLane] = useState<Lane | null>(null);
  const [precheck, setPrecheck] = useState<BarcodeCheck | null>(null);

  const submit = async (name: string, ignoreWarnings: boolean, checked: boolean) => {
    const { fastq, read2, settings, design } = input;
    if (!fastq) return;
    setBusy(true);
    setError(null);
    setWarnings(null);
    try {
      if (!checked && design) {
        // Before any sample exists: would most reads be undetermined with these settings?
        const check = await runBarcodeCheck(
          { fastq, read2, index1: settings.index1, index2: settings.index2 },
          design,
          input.mismatches,
          settings.barcodeRead,
        );
        if (check.undeterminedFraction > MOSTLY_UNDETERMINED) {
          setPrecheck(check);
          return;
        }
      }
      setPrecheck(null);
      const form = laneForm({ name, fastq, read2, settings, workbook: await input.buildWorkbook(), ignoreWarnings });
      setLane(await client.request<Lane>('POST', '/api/upload/multiplexed', { form }));
      useAppStore.getState().markSubmitted();
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'ANNOTATION_WARNINGS') setWarnings(err.body.warnings as Issue[]);
      else {
        setError(err);
        if (err instanceof ServiceError && Array.isArray(err.body.rows))
          input.onServiceIssues(err.body.rows as Issue[]);
      }
    } finally {
      setBusy(false);
    }
  };

  // Follow demultiplexing until the lane is complete or failed.
  const laneId = lane?.id;
  const laneDone = lane?.status === 'complete' || lane?.status === 'failed';
  useEffect(() => {
    if (laneId === undefined || laneDone) return;
    const t = setInterval(() => {
      client.get<Lane>(`/api/lanes/${laneId}`).then(setLane, setError);
    }, 1500);
    return () => clearInterval(t);
  }, [client, laneId, laneDone]);

  return {
    busy,
    error,
    warnings,
    lane,
    precheck,
    submit,
    dismissWarnings: () => setWarnings(null),
    dismissPrecheck: () => setPrecheck(null),
  };
}
