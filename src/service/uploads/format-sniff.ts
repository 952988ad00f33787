/**
 * Decides INVALID_FORMAT from an upload's name and first bytes: the extension says FASTQ
 * (plain or gzip) and the content agrees (a FASTQ record; for gzip the magic bytes, then a
 * FASTQ record after inflating the start).
 */
import { constants, gunzipSync } from 'node:zlib';

export type FastqKind = 'fastq' | 'fastq.gz';

/** How many leading bytes the content check wants (less is fine for small files). */
export const SNIFF_BYTES = 64 * 1024;

/** The FASTQ kind a file name declares, or null when the extension is not accepted. */
export function fastqKindOf(filename: string): FastqKind | null {
  const lower = filename.toLowerCase();
  if (/\.(fastq|fq)\.gz$/.test(lower)) return 'fastq.gz';
  if (/\.(fastq|fq)$/.test(lower)) return 'fastq';
  return null;
}

/**
 * True when `text` starts with a FASTQ record: `@id`, a sequence line, `+`, and qualities of
 * the same length. `complete` says the text is the whole file, so a short record is an error
 * rather than a cut-off.
 */
export function startsWithFastqRecord(text: string, complete: boolean): boolean {
  const lines = text.split('\n', 5).map((l) => l.replace(/\r$/, ''));
  // A line is whole when a newline follows it, or when the text is the entire file.
  const whole = (i: number) => i < lines.length - 1 || complete;
  const [id = '', seq = '', plus = '', qual = ''] = lines;
  if (!id.startsWith('@') || (whole(0) && id.length < 2)) return false;
  if (lines.length < 2) return !complete;
  if (!/^[A-Za-z.*-]*$/.test(seq)) return false;
  if (lines.length < 3) return !complete;
  if (!plus.startsWith('+') && (whole(2) || plus !== '')) return false;
  if (lines.length < 4) return !complete;
  if (!/^[!-~]*$/.test(qual)) return false;
  return whole(3) ? qual.length === seq.length : qual.length <= seq.length;
}

/** Null when the head of the file matches its declared kind, else the reason it does not. */
export function contentProblem(kind: FastqKind, head: Buffer, complete: boolean): string | null {
  if (head.length === 0) return 'the file is empty';
  let text: Buffer = head;
  if (kind === 'fastq.gz') {
    if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) return 'the file is not gzip-compressed';
    try {
      // A truncated stream is expected here: flush what inflates and keep it.
      text = gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, SNIFF_BYTES);
    } catch {
      return 'the gzip stream cannot be read';
    }
    // Only the complete compressed file makes the inflated text complete.
    if (text.length === 0) return complete ? 'the gzip stream holds no data' : null;
  }
  const str = text.toString('latin1');
  return startsWithFastqRecord(str, complete && text.length < SNIFF_BYTES) ? null : 'the content is not a FASTQ record';
}
