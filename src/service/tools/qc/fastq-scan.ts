/**
 * The hot loop of quality control: walks FASTQ records in a byte buffer and adds them to the
 * counters. It works on raw bytes (no per-line strings), finds line ends with the native
 * `indexOf`, and touches each base once for every statistic. Counting follows fastp exactly:
 * a base counts for Q20 when its quality byte is at least '5', for Q30 at least '?', and for GC
 * when `byte & 7` is that of C or G (as fastp does, so lowercase bases count too).
 */
import { FastqFormatError } from '../fastq-format-error';
import { addGcRead } from './gc-model';
import { BASE_CODE, KNOWN_ADAPTERS, PROBE_LENGTH, PROBE_MASK, probeFilter } from './known-adapters';
import { growCounts, type QcCounts } from './qc-counts';
import type { SampleCollector } from './sequence-sample';

const AT = 64;
const PLUS = 43;
const LF = 10;
const CR = 13;
const Q20 = 53;
const Q30 = 63;
const { filter: PROBE_FILTER, codes: PROBE_CODES } = probeFilter();
const ADAPTERS = KNOWN_ADAPTERS.length;

export interface ScanResult {
  /** Reads scanned by this call. */
  reads: number;
  /** Offset just after the last record scanned. */
  end: number;
}

function onlyLineBreaks(buf: Uint8Array, from: number, end: number): boolean {
  for (let i = from; i < end; i++) if (buf[i] !== LF && buf[i] !== CR) return false;
  return true;
}

/**
 * Scans whole records in buf[start, end) into `c`, at most `limit` reads. `firstLine` is the
 * file line number of buf[start] (for error messages). The last record may lack its final
 * newline only when `end` is the end of the input.
 */
export function scanRecords(
  c: QcCounts,
  buf: Uint8Array,
  start: number,
  end: number,
  firstLine = 1,
  limit = Infinity,
  sample?: SampleCollector,
): ScanResult {
  let p = start;
  let n = 0;
  let line = firstLine;
  let { baseCounts, qualHist, cap } = c;
  const { gcHist, readQualHist } = c;
  let { bases, q20, q30, gc } = c;
  while (p < end && n < limit) {
    if (buf[p] !== AT) {
      if ((buf[p] === LF || buf[p] === CR) && onlyLineBreaks(buf, p, end)) break;
      throw new FastqFormatError(line, 'expected a header line starting with "@"');
    }
    const h = buf.indexOf(LF, p);
    if (h < 0 || h >= end) throw new FastqFormatError(line, 'truncated record (no sequence line)');
    const s0 = h + 1;
    const s1 = buf.indexOf(LF, s0);
    if (s1 < 0 || s1 >= end) throw new FastqFormatError(line + 1, 'truncated record (sequence line not ended)');
    let len = s1 - s0;
    if (len > 0 && buf[s1 - 1] === CR) len--;
    const p0 = s1 + 1;
    if (p0 >= end) throw new FastqFormatError(line + 2, 'truncated record (no "+" line)');
    if (buf[p0] !== PLUS) throw new FastqFormatError(line + 2, 'expected a separator line starting with "+"');
    const p1 = buf.indexOf(LF, p0);
    if (p1 < 0 || p1 >= end) throw new FastqFormatError(line + 2, 'truncated record (no quality line)');
    const q0 = p1 + 1;
    let qe = buf.indexOf(LF, q0);
    if (qe < 0 || qe > end) qe = end;
    let qlen = qe - q0;
    if (qlen > 0 && buf[qe - 1] === CR) qlen--;
    if (qlen !== len) {
      if (qe === end && qlen < len)
        throw new FastqFormatError(line + 3, 'truncated record (quality shorter than sequence)');
      throw new FastqFormatError(line + 3, `quality length ${qlen} differs from sequence length ${len}`);
    }
    const next = qe < end ? qe + 1 : end;
    if (len > cap) {
      growCounts(c, len);
      ({ baseCounts, qualHist, cap } = c);
    }
    let gcRead = 0;
    let qsum = 0;
    let code = 0;
    let run = 0;
    let found = 0;
    for (let i = 0; i < len; i++) {
      const s = buf[s0 + i]!;
      const q = buf[q0 + i]!;
      if (q < 33 || q > 126) {
        throw new FastqFormatError(
          line + 3,
          'quality line is shorter than the sequence line or has invalid characters',
        );
      }
      baseCounts[(i << 3) | (s & 7)]!++;
      qualHist[(i << 7) | q]!++;
      // C and G (any case, and fastp's other letters with the same low three bits) end in binary 11
      gcRead += (s >> 1) & s & 1;
      qsum += q;
      // branch-free: (Q20 - 1 - q) is negative exactly when q >= Q20
      q20 += (Q20 - 1 - q) >>> 31;
      q30 += (Q30 - 1 - q) >>> 31;
      const e = BASE_CODE[s]!;
      if (e < 0) {
        run = 0;
      } else {
        code = ((code << 2) | e) & PROBE_MASK;
        if (++run >= PROBE_LENGTH && PROBE_FILTER[code & 0xffff] === 1) {
          for (let a = 0; a < ADAPTERS; a++) {
            if (PROBE_CODES[a] === code && (found & (1 << a)) === 0) {
              found |= 1 << a;
              c.adapterStarts[a * cap + i + 1 - PROBE_LENGTH]!++;
            }
          }
        }
      }
    }
    bases += len;
    gc += gcRead;
    c.lengthHist[len]!++;
    if (len < c.minLen) c.minLen = len;
    if (len > c.maxLen) c.maxLen = len;
    if (len > 0) {
      gcHist[Math.round((100 * gcRead) / len)]!++;
      addGcRead(c.gcModelHist, len, gcRead);
      // FastQC (PerSequenceQualityScores) truncates the mean: an integer division of the bytes.
      readQualHist[Math.floor(qsum / len)]!++;
    }
    if (sample && !sample.full) sample.add(buf, s0, len);
    n++;
    line += 4;
    p = next;
  }
  c.reads += n;
  Object.assign(c, { bases, q20, q30, gc });
  return { reads: n, end: p };
}
