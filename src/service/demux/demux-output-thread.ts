/**
 * The demultiplexer's output thread: it owns the output files, copies each record's bytes out
 * of the shared input chunks into its sample's block (copy-ops.ts) and hands full blocks to the
 * thread pool (written plain, or deflated as gzip members). The parsing thread only finds
 * records and barcodes, so the two run on two cores.
 */
import { parentPort } from 'node:worker_threads';
import { executeOps } from './copy-ops';
import { CompressionPool, FastqWriter } from './fastq-writer';
import type { OutputReply, OutputRequest } from './output-thread-messages';

const port = parentPort;
if (!port) throw new Error('demux-output-thread runs as a worker thread');

let pool: CompressionPool | null = null;
let writers: FastqWriter[] = [];
const chunks: Buffer[] = [];
const queue: OutputRequest[] = [];
let busy = false;
let failed = false;

const reply = (msg: OutputReply, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

async function closeAll(): Promise<void> {
  await pool?.idle().catch(() => undefined);
  for (const w of writers) w.close();
  writers = [];
}

async function handle(msg: OutputRequest): Promise<void> {
  switch (msg.type) {
    case 'open':
      pool = new CompressionPool(msg.level);
      writers = msg.files.map((f) => new FastqWriter(f, pool));
      return;
    case 'chunk':
      chunks[msg.id] = Buffer.from(msg.memory);
      return;
    case 'ops':
      executeOps(new Int32Array(msg.ops), msg.n, writers, chunks);
      // Bounded blocks in flight: the parsing thread waits on the acknowledgements in turn.
      if (pool!.saturated) await pool!.slot();
      reply({ type: 'ack', seq: msg.seq, ops: msg.ops }, [msg.ops]);
      return;
    case 'finish':
      for (const w of writers) w.flush();
      await pool!.idle();
      await closeAll();
      reply({ type: 'closed' });
      return;
    case 'abort':
      await closeAll();
      reply({ type: 'closed' });
  }
}

async function pump(): Promise<void> {
  if (busy) return;
  busy = true;
  try {
    for (let msg = queue.shift(); msg; msg = queue.shift()) {
      if (failed && msg.type !== 'abort') continue;
      try {
        await handle(msg);
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
  queue.push(msg);
  void pump();
});
reply({ type: 'ready' });
