/**
 * The Lane screen's large-file path (issue 19 item 7): when the multiplexed FASTQ has a path on
 * this computer (Electron gives it for a chosen file; browser mode takes it typed), the lane goes
 * through the desktop core's resumable upload queue, as every other lane path does: the reads go
 * up as data records in chunks (resuming after a restart), then the core creates the lane from
 * their data ids with the sheet the screen built. The service's lane checks answer there.
 */
import type { DesktopApi } from '../../../../shared/desktop-api/client';
import type { LanewayFiles } from '../../../../shared/desktop-api/dropped-files';
import type { UploadGroup } from '../../../../shared/desktop-api/contract';

/** Electron's preload helper (absent in browser mode, where a File never tells its path). */
const files = (window as Window & { lanewayFiles?: LanewayFiles<File> }).lanewayFiles;

/** Whether this window can tell a chosen file's path (Electron). */
export const knowsFilePaths = !!files;

/** Above this a browser-mode FASTQ is not posted from the page: its path is asked for instead. */
export const LARGE_LANE_BYTES = 256 * 1024 * 1024;

/** The path of a chosen file where the window tells it ('' where it cannot). */
export function pathOf(file: File | null): string {
  return file && files ? files.pathFor(file) : '';
}

export interface QueuedLane {
  name: string;
  read1: string;
  read2: string | null;
  index1: string | null;
  index2: string | null;
  workbook: Blob;
  layout: string;
  mismatches: string;
  barcodeRead: 1 | 2;
  ignoreWarnings: boolean;
}

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** Queues the lane; answers its group's id. */
export async function enqueueLaneFromScreen(api: DesktopApi, lane: QueuedLane): Promise<number> {
  const result = await api.uploads.enqueueLane({
    name: lane.name,
    file: lane.read1,
    ...(lane.read2 ? { read2: lane.read2 } : {}),
    ...(lane.index1 ? { index1: lane.index1 } : {}),
    ...(lane.index2 ? { index2: lane.index2 } : {}),
    annotation_xlsx: await base64Of(lane.workbook),
    ...(lane.layout.trim() ? { layout: lane.layout.trim() } : {}),
    ...(lane.mismatches.trim() ? { mismatches: lane.mismatches.trim() } : {}),
    ...(lane.barcodeRead === 2 && lane.read2 ? { barcode_read: 2 as const } : {}),
    ignore_warnings: lane.ignoreWarnings,
    priority: 'high',
  });
  return result.groups[0]!.id;
}

export interface GroupProgress {
  group: UploadGroup;
  bytesSent: number;
  bytesTotal: number;
  /** Why a file of the lane failed (the service refused it), or null. */
  failed: string | null;
}

/** The group and its files' bytes, from the queue's list. */
export async function laneGroupProgress(api: DesktopApi, groupId: number): Promise<GroupProgress | null> {
  const list = await api.uploads.list();
  const group = list.groups.find((g) => g.id === groupId);
  if (!group) return null;
  const jobs = list.jobs.filter((j) => group.job_ids.includes(j.id));
  return {
    group,
    bytesSent: jobs.reduce((s, j) => s + j.bytes_sent, 0),
    bytesTotal: jobs.reduce((s, j) => s + j.bytes_total, 0),
    failed: jobs.find((j) => j.state === 'failed')?.error ?? null,
  };
}
