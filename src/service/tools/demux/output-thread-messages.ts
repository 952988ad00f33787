/** Messages between the demultiplexer and its output thread. */
import type { WriterState } from './fastq-writer';

export type OutputRequest =
  /**
   * Take over the files the parsing thread opened, in the order operations name them (one state
   * per file, blocks transferred); level 0 writes plain files.
   */
  | { type: 'adopt'; states: WriterState[]; level: number }
  /** Hand the files back: stop at once, return what is not done (see 'released'). */
  | { type: 'release' }
  /** An input chunk, transferred: every operation naming it was sent before. */
  | { type: 'chunk'; id: number; memory: ArrayBuffer }
  /** A batch of copy operations (copy-ops.ts), transferred; `n` int32s are used. */
  | { type: 'ops'; seq: number; ops: ArrayBuffer; n: number }
  /** Flush, wait for every write and close the files. */
  | { type: 'finish' }
  /** Stop early: wait for the writes in flight and close the files. */
  | { type: 'abort' };

export type OutputReply =
  /** The thread runs and can take the files. */
  | { type: 'ready' }
  /** Batch `seq` is executed; its operations buffer comes back. */
  | { type: 'ack'; seq: number; ops: ArrayBuffer }
  /** A chunk whose operations are all executed comes back for reuse. */
  | { type: 'chunk'; id: number; memory: ArrayBuffer }
  /**
   * The files handed back: their writers, every chunk the thread held, and the batches it had
   * not run yet (in order), all transferred; the parsing thread runs those batches next.
   */
  | {
      type: 'released';
      states: WriterState[];
      chunks: Array<{ id: number; memory: ArrayBuffer }>;
      batches: Array<{ seq: number; ops: ArrayBuffer; n: number }>;
    }
  | { type: 'closed' }
  | { type: 'error'; message: string; code?: string };
