/**
 * The demultiplexer's output thread: it owns the output files, copies each record's bytes out
 * of the input chunks into its sample's block (copy-ops.ts) and hands full blocks to the thread
 * pool (written plain, or deflated as gzip members). The parsing thread only finds records and
 * barcodes, so the two run on two cores.
 *
 * Operations may arrive before the chunk they name (the parser lends a chunk only once it has
 * moved past it): a batch waits until its chunks are here. A chunk goes back once every
 * batch sent before it, hence every operation naming it, has run.
 *
 * The files may move between the threads while a lane runs (output-mode.ts decides): 'adopt'
 * takes over the writers the parsing thread had, 'release' hands them back with every chunk
 * held here and the batches not yet run, which the parsing thread then runs itself.
 */
import { parentPort } from 'node:worker_threads';
import { OP_INTS, executeOps } from './copy-ops';
import { CompressionPool, FastqWriter, type WriterState } from './fastq-writer';
import type { OutputReply, OutputRequest } from './output-thread-messages';

const port = parentPort;
if (!port) throw new Error('demux-output-thread runs as a worker thread');

type Step = Exclude<OutputRequest, { type: 'chunk' }> | { type: 'chunk-done'; id: number };

let pool: CompressionPool | null = null;
let writers: FastqWriter[] = [];
const chunks: Array<Buffer | undefined> = [];
const queue: Step[] = [];
let busy = false;
let failed = false;
let releasing = false;

const reply = (msg: OutputReply, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

/**
 * Ends the files; the parsing thread, which opened them, closes them (a thread closing a
 * descriptor it did not open makes Node warn, and would close it at its exit).
 */
async function endAll(): Promise<void> {
  await pool?.idle().catch(() => undefined);
  for (const w of writers) w.end();
  writers = [];
}

/** True when every chunk the batch names has arrived. */
function runnable(ops: Int32Array, n: number): boolean {
  let last = -1;
  for (let i = 1; i < n; i += OP_INTS) {
    const c = ops[i]!;
    if (c < 0 || c === last) continue;
    if (!chunks[c]) return false;
    last = c;
  }
  return true;
}

/**
 * Hands the files back: waits for the gzip members in flight, then returns the writers, every
 * chunk and the batches not run, in order.
 */
async function release(): Promise<void> {
  await pool?.idle();
  const states: WriterState[] = writers.map((w) => w.handOver());
  const batches: Array<{ seq: number; ops: ArrayBuffer; n: number }> = [];
  for (const step of queue.splice(0))
    if (step.type === 'ops') batches.push({ seq: step.seq, ops: step.ops, n: step.n });
  const back: Array<{ id: number; memory: ArrayBuffer }> = [];
  chunks.forEach((buf, id) => {
    if (buf) back.push({ id, memory: buf.buffer as ArrayBuffer });
  });
  chunks.length = 0;
  writers = [];
  pool = null;
  const transfer = [...states.map((s) => s.block), ...batches.map((b) => b.ops), ...back.map((c) => c.memory)];
  reply({ type: 'released', states, chunks: back, batches }, transfer);
}

/** Runs one step; false when it has to wait for a chunk. */
async function run(step: Step): Promise<boolean> {
  switch (step.type) {
    case 'adopt':
      pool = new CompressionPool(step.level);
      // Plain blocks too are written on the thread pool (at their offsets), beside the copying:
      // with the copies in C (copy-ops.ts) the writes were half of this thread's time, and the
      // parsing thread, waiting on it, leaves a core free.
      writers = step.states.map((st) => new FastqWriter('', pool, st));
      return true;
    case 'ops': {
      const ops = new Int32Array(step.ops);
      if (!runnable(ops, step.n)) return false;
      executeOps(ops, step.n, writers, chunks as Buffer[]);
      // Bounded blocks in flight: the parsing thread waits on the chunks coming back in turn.
      if (pool!.saturated) await pool!.slot();
      reply({ type: 'ack', seq: step.seq, ops: step.ops }, [step.ops]);
      return true;
    }
    case 'chunk-done': {
      const buf = chunks[step.id]!;
      chunks[step.id] = undefined;
      const memory = buf.buffer as ArrayBuffer;
      reply({ type: 'chunk', id: step.id, memory }, [memory]);
      return true;
    }
    case 'finish':
      for (const w of writers) w.flush();
      await pool!.idle();
      await endAll();
      reply({ type: 'closed' });
      return true;
    case 'abort':
      await endAll();
      reply({ type: 'closed' });
      return true;
    case 'release':
      return true;
  }
}

async function pump(): Promise<void> {
  if (busy) return;
  busy = true;
  try {
    for (;;) {
      if (releasing && !failed) {
        releasing = false;
        try {
          await release();
        } catch (err) {
          failed = true;
          const e = err as NodeJS.ErrnoException;
          reply({ type: 'error', message: e.message, code: e.code });
        }
      }
      const step = queue.shift();
      if (!step) break;
      if (failed && step.type !== 'abort') continue;
      try {
        if (!(await run(step))) {
          queue.unshift(step);
          break;
        }
      } catch (err) {
        failed = true;
        const e = err as NodeJS.ErrnoException;
        reply({ type: 'error', message: e.message, code: e.code });
      }
    }
  } finally {
    busy = false;
  }
}

port.on('message', (msg: OutputRequest) => {
  if (msg.type === 'chunk') {
    // Here at once for the batches waiting on it; back only after the batches sent before it.
    chunks[msg.id] = Buffer.from(msg.memory);
    queue.push({ type: 'chunk-done', id: msg.id });
  } else if (msg.type === 'release') {
    // Before the steps queued: they go back unrun.
    releasing = true;
  } else if (msg.type === 'abort') {
    // Nothing more is written (a batch may be waiting for a chunk that will never come).
    failed = true;
    queue.length = 0;
    queue.push(msg);
  } else queue.push(msg);
  void pump();
});
reply({ type: 'ready' });
