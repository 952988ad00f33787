/**
 * The name that pairs read 1 with read 2: a FASTQ header without the "@", cut at the first
 * space or tab (the comment: Illumina's `1:N:0:ACGT`, MinKNOW's `runid=...`), and without a
 * trailing `/1` or `/2` (older Illumina and SRA names). The service's pairing check and
 * Adapter Trimming use this one rule, so they stop on the same pair.
 */
export function pairName(header: string): string {
  const start = header.startsWith('@') ? 1 : 0;
  let end = header.length;
  for (let i = start; i < header.length; i++) {
    const c = header.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13) {
      end = i;
      break;
    }
  }
  const name = header.slice(start, end);
  return /\/[12]$/.test(name) ? name.slice(0, -2) : name;
}

/** The message naming the first pair whose reads differ (pair numbers count from 1). */
export function pairingMessage(pair: number, read1: string | null, read2: string | null): string {
  if (read1 === null) return `Read 2 has more reads than read 1 (read 1 ends before pair ${pair}, read 2 has ${read2})`;
  if (read2 === null) return `Read 1 has more reads than read 2 (read 2 ends before pair ${pair}, read 1 has ${read1})`;
  return `Read 1 and read 2 are not paired: pair ${pair} is ${read1} in read 1 but ${read2} in read 2`;
}

/**
 * The index field of an Illumina header (`... 1:N:0:ACGT+TTGA`), or null (also for `1:N:0:`).
 * The Lane screen's barcode check and the service's placement detection read it alike.
 */
export function headerIndex(header: string): { i7: string; i5: string | null } | null {
  const m = INDEX_FIELD.exec(header);
  return m ? { i7: m[1]!, i5: m[2] ?? null } : null;
}

/**
 * The header's second word (words split at runs of white space), its last part after a colon
 * made of bases: [A-Z]+, or two runs joined by "+". One regular expression rather than splits:
 * placement detection reads thousands of headers before a lane starts.
 */
const INDEX_FIELD = /^\S*\s+(?:[^\s:]*:)*([A-Z]+)(?:\+([A-Z]+))?(?:\s|$)/;
