/**
 * Issue 13 part 4: a sample with read 2 is created only when read names pair. The first 10,000
 * pairs are compared without `/1` `/2` and the comment; a mismatch answers 400 INVALID_PAIRING
 * naming the first differing pair, creates nothing, and the service keeps answering.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { call } from '../identity/helpers';
import { uploadWhole } from './upload-helpers';

const suite = adminSuite('alice');
const meta = { organism: 'Homo sapiens', category: 'Control' };
let n = 0;

/** FASTQ text whose i-th record is named by `name(i)` (the whole header line after "@"). */
function fastq(reads: number, name: (i: number) => string): string {
  let out = '';
  for (let i = 0; i < reads; i++) out += `@${name(i)}\nACGTACGTAC${'ACGT'[i % 4]}\n+\nIIIIIIIIIII\n`;
  return out;
}

async function upload(filename: string, bytes: Buffer): Promise<number> {
  // Unique bytes per upload (the service deduplicates identical files).
  const res = await uploadWhole(suite.service.url, suite.admin.token, `${n++}_${filename}`, bytes);
  expect(res.status).toBe(200);
  return res.body.id as number;
}

async function createPaired(r1: number, r2: number, name: string) {
  return call(suite.service, 'POST', '/api/samples/', {
    token: suite.admin.token,
    body: { name, read1: r1, read2: r2, metadata: meta },
  });
}

async function sampleCount(): Promise<number> {
  return ((await call(suite.service, 'GET', '/api/samples/', { token: suite.admin.token })).body as { count: number })
    .count;
}

describe('paired reads are checked when a sample is created', () => {
  it('accepts names that differ only by /1 /2 and the comment, gzip read 1 with plain read 2', async () => {
    const r1 = await upload(
      'ok_R1.fastq.gz',
      gzipSync(fastq(500, (i) => `M00123:5:000-ABC:1:1101:${i}:77/1 1:N:0:ACGT`)),
    );
    const r2 = await upload(
      'ok_R2.fastq',
      Buffer.from(fastq(500, (i) => `M00123:5:000-ABC:1:1101:${i}:77/2 2:N:0:ACGT`)),
    );
    const res = await createPaired(r1, r2, 'paired_ok');
    expect(res.status).toBe(201);
  });

  it('refuses a mismatch with 400 INVALID_PAIRING naming the first differing pair, and creates nothing', async () => {
    const before = await sampleCount();
    const r1 = await upload('bad_R1.fastq', Buffer.from(fastq(300, (i) => `read_${i} 1:N:0:1`)));
    // Equal counts, names that stop matching at pair 17 (a swapped or re-sorted file).
    const r2 = await upload(
      'bad_R2.fastq',
      Buffer.from(fastq(300, (i) => (i < 16 ? `read_${i} 2:N:0:1` : `read_${i + 1000} 2:N:0:1`))),
    );
    const res = await createPaired(r1, r2, 'paired_bad');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Read 1 and read 2 are not paired: pair 17 is read_16 in read 1 but read_1016 in read 2',
      code: 'INVALID_PAIRING',
      status: 400,
      pair: 17,
      read1_name: 'read_16',
      read2_name: 'read_1016',
    });
    expect(await sampleCount()).toBe(before);
    // The reads stay free: a correct read 2 makes the sample.
    const good = await upload('good_R2.fastq', Buffer.from(fastq(300, (i) => `read_${i} 2:N:0:1`)));
    expect((await createPaired(r1, good, 'paired_fixed')).status).toBe(201);
  });

  it('names the file that ends first when the counts differ within the first 10,000 pairs', async () => {
    const r1 = await upload('long_R1.fastq', Buffer.from(fastq(50, (i) => `r${i}`)));
    const r2 = await upload('short_R2.fastq', Buffer.from(fastq(40, (i) => `r${i}`)));
    const res = await createPaired(r1, r2, 'paired_short');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_PAIRING', pair: 41, read1_name: 'r40', read2_name: null });
    expect(String(res.body.error)).toMatch(/Read 1 has more reads than read 2/);
  });

  it('checks only the first 10,000 pairs (trimming stops on later divergence)', async () => {
    const r1 = await upload('late_R1.fastq', Buffer.from(fastq(10_050, (i) => `x${i}`)));
    const r2 = await upload('late_R2.fastq', Buffer.from(fastq(10_050, (i) => (i < 10_000 ? `x${i}` : `y${i}`))));
    expect((await createPaired(r1, r2, 'paired_late')).status).toBe(201);
  });

  it('answers a truncated gzip read file with a 400, never a 500, and keeps answering', async () => {
    const whole = gzipSync(fastq(3000, (i) => `t${i}`));
    const res1 = await uploadWhole(
      suite.service.url,
      suite.admin.token,
      'cut_R1.fastq.gz',
      whole.subarray(0, Math.floor(whole.length * 0.6)),
    );
    const r2 = await upload('cut_R2.fastq', Buffer.from(fastq(3000, (i) => `t${i}`)));
    if (res1.status === 200) {
      const res = await createPaired(res1.body.id as number, r2, 'paired_cut');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_FORMAT', status: 400 });
    } else expect(res1.status).toBeLessThan(500);
    expect((await call(suite.service, 'GET', '/api/health', {})).status).toBe(200);
  });
});
