/**
 * A job's sources read whole (source-file.ts): joined in order, stated on the handle that read
 * them, and every file closed again whatever happened, so that a queue of thousands of small
 * files never runs out of descriptors on a file that vanished or shrank.
 */
import { readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWholeSources } from '../../../src/main/core/uploads/source-file';
import { tempDir } from '../../helpers/temp';

/** Descriptors this process holds open (Linux). */
const openFds = () => readdirSync('/proc/self/fd').length;

describe('readWholeSources', () => {
  const dir = tempDir('source-file-');
  afterAll(() => dir.remove());
  const a = join(dir.path, 'a.fastq');
  const b = join(dir.path, 'b.fastq');
  writeFileSync(a, '@r1\nACGT\n+\nFFFF\n');
  writeFileSync(b, '@r2\nTTGCA\n+\nFFFFF\n');

  it('joins the sources in order and stats each on its handle', async () => {
    const sizes = [statSync(a).size, statSync(b).size];
    const got = await readWholeSources([a, b], sizes, sizes[0]! + sizes[1]!);
    expect(got.bytes.toString()).toBe('@r1\nACGT\n+\nFFFF\n@r2\nTTGCA\n+\nFFFFF\n');
    expect(got.stat.size).toBe(sizes[0]! + sizes[1]!);
    expect(got.stat.mtimeMs).toBe(Math.max(statSync(a).mtimeMs, statSync(b).mtimeMs));
  });

  it('refuses a source shorter than queued, and a missing one, leaving no file open', async () => {
    const short = join(dir.path, 'short.fastq');
    writeFileSync(short, '@r1\nACGT\n+\nFFFF\n');
    const queued = statSync(short).size;
    truncateSync(short, 5);
    const before = openFds();
    for (let i = 0; i < 20; i++) {
      await expect(readWholeSources([short], [queued], queued)).rejects.toThrow('is shorter than when it was queued');
      await expect(readWholeSources([join(dir.path, 'gone.fastq')], [10], 10)).rejects.toMatchObject({
        code: 'ENOENT',
      });
    }
    expect(openFds()).toBe(before);
  });
});
