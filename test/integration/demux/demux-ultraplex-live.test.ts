/**
 * The live comparison: when an `ultraplex` executable is on PATH (docs/instruments.md,
 * "Ultraplex", says how it was built here), it and `laneway demux` read the same generated lanes
 * of Ultraplex's 5'+3' design; every sample gets the same reads, by read id, with the same
 * records where both cut alike, and Ultraplex's counts and records are still the recorded ones (a
 * changed Ultraplex or generator shows here first).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { lanewayOnCase, ULTRAPLEX_CASES, ultraplexReadIds } from './ultraplex-cases';
import { comparable, lanewayRecords, type OutRecord, recordsSha256, ultraplexRecords } from './ultraplex-records';

const byKey = (records: OutRecord[]) => new Map(records.map((r) => [`${r.sample} ${r.mate} ${r.id}`, r]));

const found = spawnSync('ultraplex', ['--version'], { encoding: 'utf8' });
const skip = found.error ? 'no ultraplex executable on PATH' : null;

/**
 * Read ids per sample in Laneway's output (the name up to the UMI Laneway appends after `_`); of
 * a paired lane, its read-1 files (`_R1`) or read-2 files.
 */
function lanewayReadIds(out: string, read: 1 | 2 | null = null): Record<string, string[]> {
  const ids: Record<string, string[]> = {};
  const files = readdirSync(out).filter((n) => n.endsWith(read ? `_R${read}.fastq.gz` : '.fastq.gz'));
  for (const f of files) {
    const lines = gunzipSync(readFileSync(join(out, f)))
      .toString('latin1')
      .split('\n');
    const list: string[] = [];
    for (let i = 0; i + 1 < lines.length; i += 4) list.push(lines[i]!.slice(1).split(/[\s_]/)[0]!);
    ids[f.slice(0, -(read ? `_R${read}.fastq.gz` : '.fastq.gz').length)] = list.sort();
  }
  return ids;
}

describe.skipIf(skip !== null)(`laneway demux and live Ultraplex${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  for (const [i, c] of ULTRAPLEX_CASES.entries()) {
    it(c.title, async () => {
      const d = join(dir.path, `case${i}`);
      const { lane, out, run } = await lanewayOnCase(d, c);
      expect(run.code, run.stderr).toBe(0);
      const up = join(d, 'ultraplex');
      const input = ['-i', lane.read1, ...(lane.read2 ? ['-i2', lane.read2] : [])];
      execFileSync('ultraplex', [...input, '-b', lane.ultraplexCsv, '-d', up, '-o', 'u', ...c.ultraplexArgs], {
        stdio: 'ignore',
      });
      const theirs = ultraplexReadIds(up);
      expect(Object.fromEntries(Object.entries(theirs).map(([k, v]) => [k, v.length]))).toEqual(c.recorded);
      // Whole records: Ultraplex's are still the recorded ones; Laneway's equal them where both cut
      // alike, and elsewhere (long fragments of a paired lane) hold the same id and UMI and start
      // with Ultraplex's sequence (Ultraplex cuts more there, by chance: docs/instruments.md).
      const upRecords = ultraplexRecords(up);
      const same = comparable(upRecords, c, lane);
      expect([same.length, recordsSha256(same)]).toEqual([c.records.count, c.records.sha256]);
      const ours = byKey(lanewayRecords(out));
      expect(ours.size).toBe(upRecords.length);
      for (const t of upRecords) {
        const o = ours.get(`${t.sample} ${t.mate} ${t.id}`);
        expect(o && o.umi, t.id).toBe(t.umi);
        if (!lane.read2) expect(o, t.id).toEqual(t);
        else expect(o!.seq.startsWith(t.seq) && o!.qual.startsWith(t.qual), `${t.id}: ${o!.seq} ${t.seq}`).toBe(true);
      }
      expect(comparable([...ours.values()], c, lane)).toEqual(expect.arrayContaining(same));
      if (!lane.read2) {
        expect(lanewayReadIds(out)).toEqual(theirs);
        return;
      }
      // Both mates of every pair in the same sample, in both tools.
      expect(lanewayReadIds(out, 1)).toEqual(theirs);
      expect(lanewayReadIds(out, 2)).toEqual(ultraplexReadIds(up, 'u', undefined, 2));
    });
  }
});
