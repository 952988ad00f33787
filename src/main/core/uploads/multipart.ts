/**
 * A multipart/form-data body for one upload chunk, built by hand: text fields first (the
 * service checks the format on the first bytes of the file part), then the file part, with an
 * exact Content-Length. The file bytes are yielded in slices so that a bandwidth limit can
 * pace them and progress can count them.
 */
import { randomBytes } from 'node:crypto';

export interface MultipartBody {
  contentType: string;
  length: number;
  /** A fresh iterable per call (a retried request cannot reuse a consumed stream). */
  stream(onBytes?: (n: number) => void, pace?: (n: number) => Promise<void>): AsyncIterable<Uint8Array>;
}

/** Piece size under a bandwidth limit: well below the limiter's quarter-second bucket at 1 Mbit/s. */
const PACED_SLICE = 16 * 1024;
const SLICE = 1024 * 1024;

function escapeName(value: string): string {
  return value.replace(/[\r\n"]/g, '_');
}

/** Builds the body: fields in order, then one file part. */
export function multipartBody(
  fields: Record<string, string>,
  file: { field: string; filename: string; bytes: Buffer; type?: string },
): MultipartBody {
  const boundary = `----laneway${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(file.field)}"; filename="${escapeName(file.filename)}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`;
  const headBuf = Buffer.from(head, 'utf8');
  const tailBuf = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: headBuf.length + file.bytes.length + tailBuf.length,
    async *stream(onBytes, pace) {
      yield headBuf;
      // Under a bandwidth limit the body goes in small pieces: a whole slice let through at once
      // is a burst far above a low limit (a 2 Mbit/s limit measured 2.6 MB/s, issue 16 item 5).
      const step = pace ? PACED_SLICE : SLICE;
      for (let at = 0; at < file.bytes.length; at += step) {
        const slice = file.bytes.subarray(at, Math.min(at + step, file.bytes.length));
        if (pace) await pace(slice.length);
        yield slice;
        onBytes?.(slice.length);
      }
      yield tailBuf;
    },
  };
}
