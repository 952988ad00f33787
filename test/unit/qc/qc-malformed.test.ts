/** Malformed inputs fail with a message that says what is wrong and on which line. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { lastRecordStart } from '../../../src/service/tools/qc/record-chunks';
import { QcInputError, runQc } from '../../../src/service/tools/qc/qc-run';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-qc-bad-');
afterAll(() => dir.remove());

function file(name: string, content: string | Buffer): string {
  const path = join(dir.path, name);
  writeFileSync(path, content);
  return path;
}

const GOOD = fastqText({ reads: 5, length: 20, seed: 9 });

async function failure(path: string, opts = {}): Promise<string> {
  const err = await runQc(path, opts).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(QcInputError);
  return (err as Error).message;
}

describe('malformed FASTQ', () => {
  it('names the line of a truncated record', async () => {
    const lines = GOOD.split('\n');
    const truncated = `${lines.slice(0, 18).join('\n')}\n`;
    expect(await failure(file('truncated.fq', truncated))).toMatch(/line 19: truncated record \(no "\+" line\)/);
  });

  it('rejects quality lines shorter or longer than the sequence', async () => {
    const lines = GOOD.split('\n');
    const shorter = [...lines];
    shorter[11] = shorter[11]!.slice(0, -3);
    expect(await failure(file('short.fq', shorter.join('\n')))).toMatch(
      /line 12: quality length 17 differs from sequence length 20/,
    );
    const longer = [...lines];
    longer[7] = `${longer[7]}II`;
    expect(await failure(file('long.fq', longer.join('\n')))).toMatch(
      /line 8: quality length 22 differs from sequence length 20/,
    );
  });

  it('rejects a missing separator and a header without "@"', async () => {
    const lines = GOOD.split('\n');
    const noPlus = [...lines];
    noPlus[6] = 'x';
    expect(await failure(file('noplus.fq', noPlus.join('\n')))).toMatch(/line 7: expected a separator/);
    const noAt = [...lines];
    noAt[8] = noAt[8]!.slice(1);
    expect(await failure(file('noat.fq', noAt.join('\n')))).toMatch(/line 9: expected a header/);
  });

  it('rejects non-FASTQ, a missing file and corrupt gzip (an empty file has no reads: qc-no-reads.test.ts)', async () => {
    expect(await failure(file('table.csv', 'name,value\na,1\n'))).toMatch(/line 1: expected a header/);
    expect(await failure(join(dir.path, 'nope.fq'))).toMatch(/no such file/);
    const gz = gzipSync(GOOD);
    expect(await failure(file('cut.fq.gz', gz.subarray(0, gz.length - 20)))).toMatch(/corrupt gzip|truncated/);
  });

  it('counts line numbers across chunks and threads', async () => {
    const lines = fastqText({ reads: 2000, length: 60, seed: 4 }).split('\n');
    lines[4 * 1500 + 3] = lines[4 * 1500 + 3]!.slice(0, 10);
    const path = file('late.fq', lines.join('\n'));
    const expected = /line 6004: quality length 10 differs from sequence length 60/;
    expect(await failure(path, { chunkBytes: 8_000 })).toMatch(expected);
    expect(await failure(path, { chunkBytes: 8_000, threads: 3, threadedMinBytes: 0, awaitThreads: true })).toMatch(
      expected,
    );
  });
});

describe('record boundaries', () => {
  it('is not fooled by quality lines that start with "@"', () => {
    const text = '@r1\nACGT\n+\n@@@@\n@r2\nACGT\n+\n@III\n@r3\nAC';
    const buf = Buffer.from(text);
    expect(buf.subarray(lastRecordStart(buf)).toString()).toBe('@r2\nACGT\n+\n@III\n@r3\nAC'.slice(0));
    const complete = Buffer.from('@r1\nACGT\n+\n@@@@\n@r2\nACGT\n+\n@III\n');
    expect(complete.subarray(lastRecordStart(complete)).toString()).toBe('@r2\nACGT\n+\n@III\n');
  });
});
