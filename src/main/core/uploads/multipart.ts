/**
 * The shared multipart builder's body (src/shared/service-client/multipart.ts) as Node bytes:
 * an exact Content-Length, and the file bytes yielded in slices so that a bandwidth limit can
 * pace them and progress can count them.
 */
import type { Multipart } from '../../../shared/service-client/multipart';

export interface MultipartBody {
  contentType: string;
  length: number;
  /** A fresh iterable per call (a retried request cannot reuse a consumed stream). */
  stream(onBytes?: (n: number) => void, pace?: (n: number) => Promise<void>): AsyncIterable<Uint8Array>;
  /**
   * The whole body as one buffer (a copy of the file bytes), for a small body sent with no
   * bandwidth limit: a stream of three pieces cost a small file more than the copy (issue 21).
   */
  bytes(): Buffer;
}

/** Piece size under a bandwidth limit: well below the limiter's quarter-second bucket at 1 Mbit/s. */
const PACED_SLICE = 16 * 1024;
const SLICE = 1024 * 1024;

/** The body of a built form whose files are bytes in memory. */
export function multipartBody(form: Multipart<Uint8Array>): MultipartBody {
  // Framing text becomes bytes once; file contents are yielded as they are, never copied.
  const segments = form.segments.map((s) =>
    typeof s === 'string' ? { paced: false, bytes: Buffer.from(s, 'utf8') } : { paced: true, bytes: s },
  );
  const length = segments.reduce((n, s) => n + s.bytes.length, 0);
  return {
    contentType: form.contentType,
    length,
    bytes: () =>
      Buffer.concat(
        segments.map((s) => s.bytes),
        length,
      ),
    async *stream(onBytes, pace) {
      for (const s of segments) {
        if (!s.paced) {
          yield s.bytes;
          continue;
        }
        // Under a bandwidth limit the body goes in small pieces: a whole slice let through at
        // once is a burst far above a low limit (a 2 Mbit/s limit measured 2.6 MB/s, issue 16 item 5).
        const step = pace ? PACED_SLICE : SLICE;
        for (let at = 0; at < s.bytes.length; at += step) {
          const slice = s.bytes.subarray(at, Math.min(at + step, s.bytes.length));
          if (pace) await pace(slice.length);
          yield slice;
          onBytes?.(slice.length);
        }
      }
    },
  };
}
