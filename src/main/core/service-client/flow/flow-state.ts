/**
 * What the Flow adapter must remember across a crash, in a small JSON file in the core's
 * state folder (one per profile): the Flow data id each queued upload got from its first
 * chunk and the bytes the server acknowledged, the sample a read upload created (Flow makes
 * the sample with the last chunk of the last read, not in a request of its own), and the
 * name of each launch (Flow's run body has none, the run launcher finds launches by name).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface FlowUpload {
  /** The Flow data id chunk 0 answered (the `data` of later chunks). */
  data: string;
  /** Bytes per chunk (chunk 0's length), to tell the queue how many chunks are held. */
  chunk: number;
  /** Bytes the server acknowledged. */
  held: number;
  /** The finished data id, once the last chunk was answered. */
  done: string | null;
}

interface FlowStateFile {
  uploads: Record<string, FlowUpload>;
  /** Sample id by the data id of its read 1. */
  samples: Record<string, string>;
  /** Launch name by execution id. */
  launches: Record<string, string>;
  /** The annotation id Flow gave a lane sheet, by the sheet's file (sent once, before its reads). */
  sheets: Record<string, string>;
  /** The lanes this adapter sent (Flow has no lanes: a sheet and its reads), by read 1's data id. */
  lanes: Record<string, FlowLane>;
}

export interface FlowLane {
  name: string;
  read2: string | null;
  /** The sheet's samples, in its order. */
  samples: Array<{ name: string; barcode: string }>;
  created: string;
}

export class FlowState {
  private data: FlowStateFile;

  constructor(private readonly path: string | null) {
    this.data = { uploads: {}, samples: {}, launches: {}, sheets: {}, lanes: {} };
    if (path && existsSync(path)) this.data = { ...this.data, ...(JSON.parse(readFileSync(path, 'utf8')) as object) };
  }

  upload(fileId: string): FlowUpload | null {
    return this.data.uploads[fileId] ?? null;
  }

  setUpload(fileId: string, upload: FlowUpload | null): void {
    if (upload) this.data.uploads[fileId] = upload;
    else delete this.data.uploads[fileId];
    this.save();
  }

  sampleOf(read1: string): string | null {
    return this.data.samples[read1] ?? null;
  }

  setSample(read1: string, sample: string): void {
    this.data.samples[read1] = sample;
    this.save();
  }

  /** The read 1 of a sample this adapter made. */
  read1OfSample(sample: string): string | null {
    return Object.entries(this.data.samples).find(([, s]) => s === sample)?.[0] ?? null;
  }

  launchName(execution: string): string | null {
    return this.data.launches[execution] ?? null;
  }

  setLaunch(execution: string, name: string): void {
    this.data.launches[execution] = name;
    this.save();
  }

  sheet(path: string): string | null {
    return this.data.sheets[path] ?? null;
  }

  setSheet(path: string, id: string | null): void {
    if (id) this.data.sheets[path] = id;
    else delete this.data.sheets[path];
    this.save();
  }

  lane(read1: string): FlowLane | null {
    return this.data.lanes[read1] ?? null;
  }

  /** The lanes, newest first. */
  lanes(): Array<FlowLane & { read1: string }> {
    return Object.entries(this.data.lanes)
      .map(([read1, l]) => ({ ...l, read1 }))
      .sort((a, b) => b.created.localeCompare(a.created));
  }

  setLane(read1: string, lane: FlowLane): void {
    this.data.lanes[read1] = lane;
    this.save();
  }

  private save(): void {
    if (!this.path) return;
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(`${this.path}.tmp`, JSON.stringify(this.data));
    renameSync(`${this.path}.tmp`, this.path);
  }
}
