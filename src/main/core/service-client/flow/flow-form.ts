/**
 * The multipart bodies the Flow adapter handles: it reads back the chunk form the upload queue
 * built for Laneway's `POST /api/upload` (the shared builder's framing: text fields, then one
 * file part), and builds Flow's chunk form (FLOW-WIRE.md §3: `filename`, `expected_file_size`,
 * `is_last`, `data`, the endpoint's fields, then the `blob` part) with the same builder.
 */
import { multipart } from '../../../../shared/service-client/multipart';

export interface ReadForm {
  fields: Record<string, string>;
  file: Buffer | null;
}

/** Collects a request body (bytes or a stream of them) into one buffer. */
export async function collectBody(body: Uint8Array | AsyncIterable<Uint8Array>): Promise<Buffer> {
  if (body instanceof Uint8Array) return Buffer.from(body);
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

/** Reads a multipart/form-data body built by the shared builder. */
export function readForm(contentType: string, body: Buffer): ReadForm {
  const boundary = /boundary=([^;]+)/i.exec(contentType)?.[1]?.trim();
  if (!boundary) throw new Error('The chunk has no multipart boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: Record<string, string> = {};
  let file: Buffer | null = null;
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    // A part is CRLF, headers, CRLF CRLF, content, CRLF (before the next delimiter).
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, split).toString('utf8');
    const content = part.subarray(split + 4);
    const name = /name="([^"]*)"/.exec(headers)?.[1] ?? '';
    if (/filename="/.test(headers)) file = Buffer.from(content);
    else fields[name] = content.toString('utf8');
    at = next;
  }
  return { fields, file };
}

/** One Flow chunk's form: the protocol's fields, the endpoint's (lists repeat), then the blob. */
export function flowChunkForm(
  chunk: { filename: string; offset: number; isLast: boolean; data: string; bytes: Buffer },
  extra: Record<string, string | string[]>,
): { contentType: string; body: Buffer } {
  // The shared builder takes one value per name: repeated fields are framed by hand, in order.
  const form = multipart<Buffer>(
    {
      filename: chunk.filename,
      expected_file_size: String(chunk.offset),
      is_last: chunk.isLast ? 'true' : 'false',
      data: chunk.data,
    },
    [{ field: 'blob', filename: chunk.filename, content: chunk.bytes }],
  );
  const boundary = form.contentType.split('boundary=')[1]!;
  let more = '';
  for (const [name, value] of Object.entries(extra))
    for (const one of Array.isArray(value) ? value : [value])
      more += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${one}\r\n`;
  const [head, ...rest] = form.segments;
  // The first segment holds the text fields and the blob's headers: the extra fields go between.
  const blobAt = (head as string).lastIndexOf(`--${boundary}\r\nContent-Disposition: form-data; name="blob"`);
  const text = `${(head as string).slice(0, blobAt)}${more}${(head as string).slice(blobAt)}`;
  const body = Buffer.concat(
    [text, ...rest].map((s) => (typeof s === 'string' ? Buffer.from(s, 'utf8') : Buffer.from(s))),
  );
  return { contentType: form.contentType, body };
}
