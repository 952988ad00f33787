/**
 * A gzip file's bytes, inflated as a stream, every member of it. The browser's
 * DecompressionStream stops at the end of the first member ("Junk found after end of compressed
 * data"), and FASTQs are often several members: bgzip writes one per 64 KB block, and lanes
 * joined with `cat` (or by Laneway's own lane joining) are one member per file. fflate's
 * streaming Gunzip reads on into the next member.
 */
import { Gunzip } from 'fflate';

/** True when the bytes start as gzip does. */
export function isGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** The inflated bytes of a gzip file, all of its members, pulled as the reader asks. */
export function gunzipStream(file: Blob): ReadableStream<Uint8Array> {
  const source = (file.stream() as ReadableStream<Uint8Array>).getReader();
  let out: Uint8Array[] = [];
  const gunzip = new Gunzip((chunk) => out.push(chunk));
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Feed compressed chunks until some output comes (a chunk may hold only a header).
      while (!out.length) {
        const { value, done } = await source.read();
        if (done) {
          gunzip.push(new Uint8Array(0), true);
          for (const chunk of out) controller.enqueue(chunk);
          controller.close();
          return;
        }
        gunzip.push(value);
      }
      for (const chunk of out) controller.enqueue(chunk);
      out = [];
    },
    cancel(reason) {
      return source.cancel(reason);
    },
  });
}
