/**
 * The one multipart/form-data builder, for the core's upload queue (Node: the segments become
 * an exactly sized byte stream) and the renderer (`new Blob(segments)`): text fields first, in
 * order (the service checks a file's format on the first bytes of its part), then the file
 * parts. The framing is text and the files stay whatever the platform holds them as (`F`: a
 * Buffer, a Blob), so no file is copied into a bigger buffer. Also the upload route's chunk
 * fields, named once.
 */

export interface FilePart<F> {
  field: string;
  filename: string;
  content: F;
  type?: string;
}

export interface Multipart<F> {
  contentType: string;
  /** The body in order: framing text (UTF-8 on the wire) and file contents. */
  segments: Array<string | F>;
}

/** Quotes and line breaks cannot end a header parameter early. */
function headerValue(value: string): string {
  return value.replace(/["\\\r\n]/g, '_');
}

/**
 * The longest boundary RFC 2046 allows (70 characters), of lower-case letters. The service finds
 * it with a Boyer-Moore-Horspool search (busboy's), which skips up to the needle's length at each
 * byte that is not in it: FASTQ is upper-case bases, digits and punctuation, so most of a file's
 * bytes let it skip all 74 bytes of "\r\n--" and the boundary. With 35 characters of hex (digits
 * are common in quality strings) the search was 0.9 s of the service's thread for a 2 GiB file.
 */
const BOUNDARY_LETTERS = 'abcdefghijklmnopqrstuvwxyz';
function randomBoundary(): string {
  let tail = '';
  for (let i = 0; i < 70 - 11; i++) tail += BOUNDARY_LETTERS[Math.floor(Math.random() * 26)];
  return `----laneway${tail}`;
}

/** Builds the body: every field with a value, in order, then each file part. */
export function multipart<F>(
  fields: Record<string, string | undefined>,
  files: ReadonlyArray<FilePart<F>>,
  boundary = randomBoundary(),
): Multipart<F> {
  const segments: Array<string | F> = [];
  let text = '';
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    text += `--${boundary}\r\nContent-Disposition: form-data; name="${headerValue(name)}"\r\n\r\n${value}\r\n`;
  }
  for (const file of files) {
    text += `--${boundary}\r\nContent-Disposition: form-data; name="${headerValue(file.field)}"; filename="${headerValue(file.filename)}"\r\n`;
    text += `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`;
    segments.push(text, file.content);
    text = '\r\n';
  }
  segments.push(`${text}--${boundary}--\r\n`);
  return { contentType: `multipart/form-data; boundary=${boundary}`, segments };
}

/** One chunk of `POST /api/upload` (service-interface.md): the route's form fields. */
export interface UploadChunk {
  filename: string;
  chunk: number;
  totalChunks: number;
  fileId: string;
  totalSize?: number;
  /** The whole file's sha256: with the first chunk when known up front, else with the last. */
  checksum?: string | null;
}

/** The chunk upload's fields, in the order the service reads them. */
export function uploadChunkFields(c: UploadChunk): Record<string, string | undefined> {
  return {
    filename: c.filename,
    chunk: String(c.chunk),
    total_chunks: String(c.totalChunks),
    file_id: c.fileId,
    total_size: c.totalSize === undefined ? undefined : String(c.totalSize),
    checksum: c.checksum ?? undefined,
  };
}

/** How many chunks a file of `size` bytes needs (at least one, for an empty file). */
export function chunkCount(size: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}
