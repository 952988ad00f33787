/**
 * A read 2 that is a copy of its read 1 (a copy made by hand, or a file put under the mate's
 * name), told at proposal time. The upload would find it only after hashing both files, and the
 * sample would then be refused (group-finisher.ts). True mates never start with the same bytes:
 * their first record's header differs (Illumina's " 1:N:0:" and " 2:N:0:", or "/1" and "/2"),
 * and so does their first read, while a copy of a file is the same from its first byte. The
 * sizes are compared first, so most pairs cost nothing; equal sizes are common for plain FASTQ
 * mates of one read length, so their first bytes are read as well.
 */
import { open } from 'node:fs/promises';

/** Bytes read from the start of each file: several FASTQ records, one page of the disk. */
const HEAD_BYTES = 4096;

async function head(path: string): Promise<Buffer | null> {
  try {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    // Unreadable: the scan's own warnings and the upload say so.
    return null;
  }
}

/** Whether two files of equal, non-zero size start with the same bytes (read 2 a copy of read 1). */
export async function looksCopied(
  a: { path: string; size: number },
  b: { path: string; size: number },
): Promise<boolean> {
  if (a.size !== b.size || a.size === 0 || a.path === b.path) return false;
  const [x, y] = await Promise.all([head(a.path), head(b.path)]);
  return x !== null && y !== null && x.length > 0 && x.equals(y);
}
