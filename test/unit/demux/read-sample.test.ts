/**
 * The sampler's first reads of a plain file (read in blocks) are those a stream and Node's line
 * reader give, as it read them before: line ends \n, \r\n and a lone \r, a last line without its
 * end, blank lines, UTF-8 in headers, blocks cut anywhere, and the limit.
 */
import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { firstReads, type SampledRead } from '../../../src/service/tools/demux/read-sample';
import { tempDir } from '../../helpers/temp';

async function throughReadline(path: string, limit: number): Promise<SampledRead[]> {
  const file = createReadStream(path);
  const lines = createInterface({ input: file, crlfDelay: Infinity });
  const reads: SampledRead[] = [];
  let header = '';
  let n = 0;
  try {
    for await (const line of lines) {
      const k = n++ % 4;
      if (k === 0) header = line;
      else if (k === 1) {
        reads.push({ header, seq: line.trim().toUpperCase() });
        if (reads.length >= limit) break;
      }
    }
  } finally {
    lines.close();
    file.destroy();
  }
  return reads;
}

let big = '';
for (let i = 0; i < 9000; i++) {
  big += `@r${i} 1:N:0:ACGTAC${i % 7 ? '' : 'é'}${i % 5 ? '\r\n' : '\r'}${'ACGT'.repeat(40)}\r\n+\r\n${'I'.repeat(160)}\r\n`;
}
// Only \n line ends (the sampler's quick path): UTF-8 in headers, lowercase and padded bases.
let bigLf = '';
for (let i = 0; i < 9000; i++) {
  bigLf += `@r${i} 1:N:0:ACGTAC${i % 7 ? '' : 'é'}\n${i % 3 ? 'ACGT'.repeat(40) : ' acgtn '}\n+\n${'I'.repeat(i % 3 ? 160 : 7)}\n`;
}
const files: Record<string, string> = {
  lf: '@a 1:N:0:ACGT\nacgt\n+\nIIII\n@b\nTTTT\n+\nIIII\n',
  crlf: '@a 1:N:0:ACGT\r\nACGT\r\n+\r\nIIII\r\n@b\r\nTTTT\r\n+\r\nIIII',
  cr: '@a\rACGT\r+\rIIII\r@b\rGG\r+\rII\r',
  mixed: '@a é\r\n AC \n+\n\n\n@b\rGG\n+\n',
  'no last line end': '@a\nACGT\n+\nIIII\n@b\nCC',
  empty: '',
  'several blocks': big,
  'several blocks, \\n only': bigLf,
  'several blocks, \\n only, no last line end': bigLf.slice(0, -1),
};

describe('sampling the first reads of a plain file', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  it.each(Object.keys(files))('reads what the line reader reads: %s', async (name) => {
    const path = join(dir.path, `${name.replace(/\W/g, '-')}.fastq`);
    writeFileSync(path, files[name]!);
    for (const limit of [0, 1, 2, 4000])
      expect(await firstReads(path, limit)).toEqual(await throughReadline(path, limit));
  });
});
