/**
 * Submitting a lane, the use case behind the submit card: the barcode check on the first reads
 * before anything is uploaded; then a FASTQ with a path on this computer (Electron, or typed in
 * browser mode) goes through the desktop core's resumable upload queue, which creates the lane
 * from the uploaded data (lane-queue.ts), and a small file picked in browser mode goes as the
 * multipart form (the sheet as .xlsx, the multiplexed FASTQ, index reads, layout, mismatches,
 * barcode read) to `POST /api/upload/multiplexed`; the service's verdicts (409
 * ANNOTATION_WARNINGS to confirm, INVALID_ANNOTATION rows back onto the sheet); and following
 * the lane through demultiplexing.
 */
import { useEffect, useState } from 'react';
import type { BarcodeDesign, Issue } from '../../../../shared/annotation';
import { getLanesById, postUploadMultiplexed } from '../../../../shared/service-api/endpoints';
import type { Lane } from '../../../../shared/service-api/lanes';
import { multipart, type FilePart } from '../../../../shared/service-client/multipart';
import { ServiceError } from '../../../../shared/service-client/service-error';
import { useServices } from '../../service-client/services-context';
import { useAppStore } from '../../store';
import { MOSTLY_UNDETERMINED, runBarcodeCheck, type BarcodeCheck } from './barcode-check';
import type { DemuxSettings } from './demux-settings';
import { enqueueLaneFromScreen, pathOf } from './lane-queue';
import { useQueuedLane } from './use-queued-lane';

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
  /** Browser mode: the FASTQs' paths as typed (a browser cannot tell a chosen file's path). */
  typedPaths: { read1: string; read2: string };
}

/** The submission's state, and `submit`: `checked` once the barcode check was seen (or skipped). */
export function useLaneSubmission(input: LaneSubmissionInput) {
  const { client, api } = useServices();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [warnings, setWarnings] = useState<Issue[] | null>(null);
  const [lane, setLane] = useState<Lane | null>(null);
  const [precheck, setPrecheck] = useState<BarcodeCheck | null>(null);
  const [groupId, setGroupId] = useState<number | null>(null);
  const queued = useQueuedLane(api, groupId);
  // The queue's paths: a chosen file's (Electron) or the typed ones (browser mode).
  const read1Path = pathOf(input.fastq) || input.typedPaths.read1.trim();
  const read2Path = pathOf(input.read2) || input.typedPaths.read2.trim();

  useEffect(() => {
    if (queued?.phase === 'created')
      client.call(getLanesById, { params: { id: queued.laneId } }).then(setLane, setError);
    if (queued?.phase === 'refused') {
      if (queued.warnings) setWarnings([{ row: 1, column: '', message: queued.reason }]);
      else setError(new Error(queued.reason));
    }
  }, [client, queued]);

  const submit = async (name: string, ignoreWarnings: boolean, checked: boolean) => {
    const { fastq, read2, settings, design } = input;
    if (!fastq && !read1Path) return;
    setBusy(true);
    setError(null);
    setWarnings(null);
    try {
      if (!checked && design && fastq) {
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
      if (read1Path) {
        setLane(null);
        setGroupId(
          await enqueueLaneFromScreen(api, {
            name,
            read1: read1Path,
            read2: read2Path || null,
            index1: pathOf(settings.index1) || null,
            index2: pathOf(settings.index2) || null,
            workbook: await input.buildWorkbook(),
            layout: settings.layout,
            mismatches: settings.mismatches,
            barcodeRead: settings.barcodeRead,
            ignoreWarnings,
          }),
        );
        useAppStore.getState().markSubmitted();
        return;
      }
      if (!fastq) return;
      const form = laneForm({ name, fastq, read2, settings, workbook: await input.buildWorkbook(), ignoreWarnings });
      setLane(await client.call(postUploadMultiplexed, { form }));
      useAppStore.getState().markSubmitted();
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'ANNOTATION_WARNINGS') setWarnings(err.warnings ?? []);
      else {
        setError(err);
        if (err instanceof ServiceError && err.rows) input.onServiceIssues(err.rows);
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
      client.call(getLanesById, { params: { id: laneId } }).then(setLane, setError);
    }, 1500);
    return () => clearInterval(t);
  }, [client, laneId, laneDone]);

  return {
    busy,
    error,
    warnings,
    lane,
    precheck,
    queued,
    read1Path,
    submit,
    dismissWarnings: () => setWarnings(null),
    dismissPrecheck: () => setPrecheck(null),
  };
}
