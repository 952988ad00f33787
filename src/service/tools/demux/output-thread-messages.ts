/** Messages between the demultiplexer and its output thread. */

export type OutputRequest =
  /** The output files, in the order operations name them; level 0 writes plain files. */
  | { type: 'open'; files: string[]; level: number }
  /** An input chunk, transferred: every operation naming it was sent before. */
  | { type: 'chunk'; id: number; memory: ArrayBuffer }
  /** A batch of copy operations (copy-ops.ts), transferred; `n` int32s are used. */
  | { type: 'ops'; seq: number; ops: ArrayBuffer; n: number }
  /** Flush, wait for every write and close the files. */
  | { type: 'finish' }
  /** Stop early: wait for the writes in flight and close the files. */
  | { type: 'abort' };

export type OutputReply =
  | { type: 'ready' }
  /** Batch `seq` is executed; its operations buffer comes back. */
  | { type: 'ack'; seq: number; ops: ArrayBuffer }
  /** A chunk whose operations are all executed comes back for reuse. */
  | { type: 'chunk'; id: number; memory: ArrayBuffer }
  | { type: 'closed' }
  | { type: 'error'; message: string; code?: string };
