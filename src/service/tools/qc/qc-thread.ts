/**
 * A quality-control scanning thread: receives record-aligned buffers (transferred, not copied),
 * scans them into its own counters, answers per chunk with the read count (and the sampled
 * sequences when asked), and hands its counters over on "finish".
 */
import { parentPort } from 'node:worker_threads';
import { FastqFormatError } from '../fastq-format-error';
import { scanRecords } from './fastq-scan';
import { createCounts } from './qc-counts';
import { SAMPLE_READS, SampleCollector } from './sequence-sample';
import type { ThreadReply, ThreadRequest } from './qc-thread-messages';

const port = parentPort;
if (!port) throw new Error('qc-thread runs as a worker thread');
const counts = createCounts();

port.on('message', (msg: ThreadRequest) => {
  if (msg.type === 'finish') {
    port.postMessage({ type: 'counts', counts } satisfies ThreadReply);
    return;
  }
  const buf = new Uint8Array(msg.buffer, 0, msg.length);
  const sample = msg.sample ? new SampleCollector(SAMPLE_READS) : undefined;
  try {
    const { reads } = scanRecords(counts, buf, 0, buf.length, 1, Infinity, sample);
    const reply: ThreadReply = { type: 'chunk', index: msg.index, reads };
    if (sample) reply.sample = { keys: sample.keys, seqs: sample.seqs };
    port.postMessage(reply);
  } catch (err) {
    const e = err as Error;
    const line = err instanceof FastqFormatError ? err.line : 0;
    const reason = err instanceof FastqFormatError ? err.reason : e.message;
    port.postMessage({ type: 'chunk', index: msg.index, reads: 0, error: { line, reason } } satisfies ThreadReply);
  }
});
port.postMessage({ type: 'ready' } satisfies ThreadReply);
