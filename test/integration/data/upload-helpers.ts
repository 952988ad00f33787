/** Helpers for data-area tests: FASTQ bytes, chunk posts and whole chunked uploads. */
import { createHash } from 'node:crypto';

/** Deterministic FASTQ text of `reads` records of `length` bases. */
export function fastqBytes(reads: number, length = 50, seed = 1): Buffer {
  let x = seed >>> 0 || 1;
  const rnd = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
  const parts: string[] = [];
  for (let i = 0; i < reads; i++) {
    let seq = '';
    for (let j = 0; j < length; j++) seq += 'ACGT'[Math.floor(rnd() * 4)];
    // Names pair across files (read 1 and read 2 of a sample); the seed goes in the comment.
    parts.push(`@read_${i} 1:N:0:ACGTACGT seed=${seed}\n${seq}\n+\n${'I'.repeat(length)}\n`);
  }
  return Buffer.from(parts.join(''));
}

export function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

export interface ChunkPost {
  filename: string;
  chunk: number;
  total_chunks: number;
  file_id: string;
  total_size?: number;
  checksum?: string;
  chunk_checksum?: string;
  /** Send the file part before the fields. */
  fileFirst?: boolean;
}

/** POSTs one chunk as multipart/form-data; returns status and JSON body. */
export async function postChunk(
  url: string,
  token: string | null,
  fields: ChunkPost,
  bytes: Buffer,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  const file = new Blob([new Uint8Array(bytes)]);
  if (fields.fileFirst) form.append('file', file, fields.filename);
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'fileFirst' || v === undefined) continue;
    form.append(k, String(v));
  }
  if (!fields.fileFirst) form.append('file', file, fields.filename);
  const res = await fetch(`${url}/api/upload`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Splits bytes into chunks of `size`. */
export function chunksOf(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

/** Uploads a whole file in order; resolves with the last answer. */
export async function uploadWhole(
  url: string,
  token: string,
  filename: string,
  bytes: Buffer,
  opts: { chunkSize?: number; fileId?: string; checksum?: boolean } = {},
) {
  const parts = chunksOf(bytes, opts.chunkSize ?? bytes.length);
  const fileId = opts.fileId ?? `${filename}-${Math.random().toString(36).slice(2)}`;
  let last: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
  for (let i = 0; i < parts.length; i++) {
    last = await postChunk(
      url,
      token,
      {
        filename,
        chunk: i,
        total_chunks: parts.length,
        file_id: fileId,
        total_size: bytes.length,
        checksum: opts.checksum === false ? undefined : sha256(bytes),
      },
      parts[i]!,
    );
    if (last.status !== 200) return last;
  }
  return last;
}
