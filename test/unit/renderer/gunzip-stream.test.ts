/**
 * The Lane screen's barcode check reads gzip FASTQs of several members: bgzip's 64 KB blocks,
 * and lanes joined with `cat` or by Laneway. The browser's DecompressionStream stops after the
 * first member with "Junk found after end of compressed data" (seen on a generated lane in
 * Chromium); gunzipStream reads every member, whatever the chunking of the file's bytes.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { firstReads } from '../../../src/renderer/src/features/annotation/barcode-check';
import { gunzipStream } from '../../../src/renderer/src/features/annotation/gunzip-stream';

const fastq = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `@r${from + i} 1:N:0:1\nACGTACGTAC\n+\nFFFFFFFFFF\n`).join('');

async function inflate(blob: Blob): Promise<string> {
  const parts: Uint8Array[] = [];
  const reader = gunzipStream(blob).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return Buffer.concat(parts).toString();
}

describe('gzip of several members', () => {
  it('inflates every member: two files joined, and 290 small blocks as bgzip writes them', async () => {
    const a = fastq(0, 500);
    const b = fastq(500, 700);
    expect(await inflate(new Blob([gzipSync(a), gzipSync(b)]))).toBe(a + b);
    const text = fastq(0, 3000);
    const blocks: BlobPart[] = [];
    for (let i = 0; i < text.length; i += 400) blocks.push(gzipSync(text.slice(i, i + 400)));
    expect(blocks.length).toBeGreaterThan(250);
    expect(await inflate(new Blob(blocks))).toBe(text);
    // One member, and an empty member between two (gzip of nothing is still a member).
    expect(await inflate(new Blob([gzipSync(a)]))).toBe(a);
    expect(await inflate(new Blob([gzipSync(a), gzipSync(''), gzipSync(b)]))).toBe(a + b);
  });

  it("gives the check its first reads from past the first member's end", async () => {
    const blob = new Blob([gzipSync(fastq(0, 100)), gzipSync(fastq(100, 100))]);
    const reads = await firstReads(blob, 150);
    expect(reads).toHaveLength(150);
    expect(reads.at(-1)).toEqual(['@r149 1:N:0:1', 'ACGTACGTAC']);
  });

  it('refuses a damaged gzip with an error, not wrong reads', async () => {
    const good = gzipSync(fastq(0, 200));
    const bad = Buffer.from(good);
    bad.fill(0x55, 20, 60);
    await expect(inflate(new Blob([bad]))).rejects.toThrow();
  });
});
