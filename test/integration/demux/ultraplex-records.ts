/**
 * Whole output records of `laneway demux` and Ultraplex, in one form both can be compared in:
 * per sample and mate, the read id, the UMI (Laneway appends `_UMI` to the name, umi_tools'
 * convention; Ultraplex appends `rbc:UMI` after the rest of the header), the sequence and the
 * qualities. The read names' formats differ on purpose; the UMI bases must not.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { UltraplexLane } from '../../helpers/ultraplex-lane-generator';
import type { UltraplexCase } from './ultraplex-cases';

export interface OutRecord {
  sample: string;
  /** 0 single-end, 1 or 2 the mate. */
  mate: 0 | 1 | 2;
  id: string;
  umi: string;
  seq: string;
  qual: string;
}

function parse(path: string, sample: string, mate: 0 | 1 | 2, umiOf: (name: string) => string): OutRecord[] {
  const l = gunzipSync(readFileSync(path)).toString('latin1').split('\n');
  const out: OutRecord[] = [];
  for (let i = 0; i + 3 < l.length; i += 4) {
    const name = l[i]!.slice(1);
    out.push({ sample, mate, id: name.split(/[\s_]/)[0]!, umi: umiOf(name), seq: l[i + 1]!, qual: l[i + 3]! });
  }
  return out;
}

/** The samples' records in Ultraplex's output folder (`ultraplex_u_S01[_Fwd|_Rev].fastq.gz`). */
export function ultraplexRecords(dir: string, prefix = 'u'): OutRecord[] {
  const out: OutRecord[] = [];
  for (const f of readdirSync(dir)) {
    const m = new RegExp(`^ultraplex_${prefix}_(S\\d+)(_Fwd|_Rev)?\\.fastq\\.gz$`).exec(f);
    if (!m) continue;
    const mate = m[2] === '_Fwd' ? 1 : m[2] === '_Rev' ? 2 : 0;
    out.push(...parse(join(dir, f), m[1]!, mate, (n) => n.split('rbc:')[1] ?? ''));
  }
  return out;
}

/** The samples' records in Laneway's output folder (`S01.fastq.gz`, or `S01_R1/_R2.fastq.gz`). */
export function lanewayRecords(dir: string): OutRecord[] {
  const out: OutRecord[] = [];
  for (const f of readdirSync(dir)) {
    const m = /^(S\d+)(_R1|_R2)?\.fastq\.gz$/.exec(f);
    if (!m) continue;
    const mate = m[2] === '_R1' ? 1 : m[2] === '_R2' ? 2 : 0;
    out.push(...parse(join(dir, f), m[1]!, mate, (n) => n.split(/\s/)[0]!.split('_').slice(1).join('_')));
  }
  return out;
}

/**
 * The records both tools must write alike: every record of a single-end lane; of a paired lane,
 * the pairs whose fragment (5' barcode, insert, 3' barcode) ends 3 or more bases before the read's
 * end, so read 1 shows the adapter and both tools cut both mates to the insert. Longer fragments
 * are left out: there Ultraplex also cuts by chance (docs/instruments.md, "Paired lanes").
 */
export function comparable(records: OutRecord[], c: UltraplexCase, lane: UltraplexLane): OutRecord[] {
  if (!c.lane.paired) return records;
  const readLength = c.lane.readLength ?? 100;
  const span = c.lane.fiveLayout.length + c.lane.threeLayout.length;
  return records.filter((r) => span + lane.inserts.get(r.id)!.length + 3 <= readLength);
}

/** sha256 of the records, sorted, one tab-separated line each. */
export function recordsSha256(records: OutRecord[]): string {
  const lines = records.map((r) => [r.sample, r.mate, r.id, r.umi, r.seq, r.qual].join('\t')).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
