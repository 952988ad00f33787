/**
 * A sample with read 2 is created only when its reads pair: the names of the first 10,000
 * pairs are compared (without `/1` `/2` and the comment, src/shared/read-names.ts), and the
 * first pair that differs is named in 400 INVALID_PAIRING. Files are read as streams (gzip or
 * plain), only the headers are kept, and reading stops at the limit.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { pairingMessage, pairName } from '../../shared/read-names';
import { ApiError } from '../http/api-error';

export const PAIRS_CHECKED = 10_000;

async function isGzip(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/** The pairing names of the first `limit` records of a FASTQ file. */
async function* names(path: string, limit: number): AsyncGenerator<string> {
  const file = createReadStream(path);
  const input = (await isGzip(path)) ? file.pipe(createGunzip()) : file;
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  let line = 0;
  try {
    for await (const text of lines) {
      if (line++ % 4 !== 0) continue;
      yield pairName(text);
      if (++n >= limit) return;
    }
  } finally {
    lines.close();
    file.destroy();
  }
}

/** Throws INVALID_PAIRING naming the first pair whose read names differ. */
export async function checkReadPairing(read1: string, read2: string, limit = PAIRS_CHECKED): Promise<void> {
  const a = names(read1, limit);
  const b = names(read2, limit);
  try {
    for (let pair = 1; pair <= limit; pair++) {
      const [x, y] = await Promise.all([a.next(), b.next()]);
      if (x.done && y.done) return;
      const n1 = x.done ? null : x.value;
      const n2 = y.done ? null : y.value;
      if (n1 !== n2)
        throw new ApiError('INVALID_PAIRING', pairingMessage(pair, n1, n2), { pair, read1_name: n1, read2_name: n2 });
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // A file that is not gzip or text FASTQ after all: a clear 400, never a 500.
    throw new ApiError('INVALID_FORMAT', `The reads cannot be read as FASTQ: ${(err as Error).message}`);
  } finally {
    await a.return(undefined).catch(() => undefined);
    await b.return(undefined).catch(() => undefined);
  }
}
