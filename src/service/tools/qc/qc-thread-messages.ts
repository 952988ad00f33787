/** Messages between the quality-control driver and its scanning threads. */
import type { QcCounts } from './qc-counts';
import type { SampleChunk } from './sequence-sample';

export type ThreadRequest =
  { type: 'chunk'; index: number; buffer: ArrayBuffer; length: number; sample: boolean } | { type: 'finish' };

export type ThreadReply =
  | {
      type: 'chunk';
      index: number;
      reads: number;
      sample?: SampleChunk;
      /** Line is relative to the chunk's first line. */
      error?: { line: number; reason: string };
    }
  | { type: 'counts'; counts: QcCounts }
  | { type: 'ready' };
