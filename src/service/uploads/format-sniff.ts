/**
 * Decides INVALID_FORMAT from an upload's name and first bytes: the extension says FASTQ or a
 * reference format (FASTA, GTF, GFF3, BED), plain or gzip/bgzip, and the content agrees (for
 * gzip the magic bytes, then the format's check after inflating the start).
 */
import { constants, gunzipSync } from 'node:zlib';
import { ApiError } from '../http/api-error';
import { referenceProblem, type ReferenceType } from './reference-sniff';

export type FastqKind = 'fastq' | 'fastq.gz';
export type UploadDataType = 'fastq' | ReferenceType;
/** What an upload's name declares: its data type and whether it is gzip (bgzip is gzip). */
export type UploadKind = FastqKind | `${ReferenceType}` | `${ReferenceType}.gz`;

/** The extensions uploads accept, as the error message lists them. */
export const ACCEPTED_EXTENSIONS = '.fastq, .fq, .fa, .fasta, .fna, .gtf, .gff, .gff3, .bed (each also .gz or bgzip)';

const EXTENSIONS: Array<[RegExp, UploadDataType]> = [
  [/\.(fastq|fq)$/, 'fastq'],
  [/\.(fa|fasta|fna)$/, 'fasta'],
  [/\.gtf$/, 'gtf'],
  [/\.(gff|gff3)$/, 'gff3'],
  [/\.bed$/, 'bed'],
];

/** The kind an upload's file name declares, or null when the extension is not accepted. */
export function uploadKindOf(filename: string): UploadKind | null {
  const lower = filename.toLowerCase();
  const gz = /\.(gz|bgz)$/.test(lower);
  const bare = lower.replace(/\.(gz|bgz)$/, '');
  const type = EXTENSIONS.find(([re]) => re.test(bare))?.[1];
  return type ? (`${type}${gz ? '.gz' : ''}` as UploadKind) : null;
}

/** The data type a kind stores as (compression is not a data type). */
export function dataTypeOfKind(kind: UploadKind): UploadDataType {
  return kind.replace(/\.gz$/, '') as UploadDataType;
}

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
export function contentProblem(kind: UploadKind, head: Buffer, complete: boolean): string | null {
  if (head.length === 0) return 'the file is empty';
  let text: Buffer = head;
  if (kind.endsWith('.gz')) {
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
  const whole = complete && text.length < SNIFF_BYTES;
  const type = dataTypeOfKind(kind);
  if (type !== 'fastq') return referenceProblem(type, str, whole);
  return startsWithFastqRecord(str, whole) ? null : 'the content is not a FASTQ record';
}

/** A sniff of chunk 0's first bytes against the declared kind, as the chunk sink calls it. */
export function sniffFor(kind: UploadKind, isLastChunk: boolean) {
  return (head: Buffer, ended: boolean): ApiError | null => {
    const problem = contentProblem(kind, head, ended && isLastChunk);
    return problem ? new ApiError('INVALID_FORMAT', `File content does not match its extension: ${problem}`) : null;
  };
}
