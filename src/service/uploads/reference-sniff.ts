/**
 * Content checks for reference uploads (FASTA, GTF, GFF3, BED), in the spirit of the FASTQ
 * check: the head of the file must read as the format its extension declares. Only whole lines
 * are judged; the last line of a head that is not the whole file may be cut anywhere.
 */

export type ReferenceType = 'fasta' | 'gtf' | 'gff3' | 'bed';

/** How many data lines of the head are checked (enough to catch a wrong file, cheap to run). */
const CHECK_LINES = 200;

function wholeLines(text: string, complete: boolean): string[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (!complete) lines.pop();
  return lines.slice(0, CHECK_LINES * 4);
}

// IUPAC nucleotide and amino-acid letters, gaps and stops (what samtools faidx accepts).
const SEQUENCE = /^[A-Za-z*.-]*$/;

function fastaProblem(text: string, complete: boolean): string | null {
  const lines = wholeLines(text, complete).filter((l, i) => i > 0 || l !== '');
  const first = lines.find((l) => l.trim() !== '');
  if (first === undefined) return complete ? 'the file holds no sequence' : null;
  if (!first.startsWith('>') || first.slice(1).trim() === '' || /^>\s/.test(first)) {
    return 'the content is not FASTA: it must start with a header line ">name"';
  }
  let residues = 0;
  for (const [i, line] of lines.entries()) {
    if (line.startsWith('>')) {
      if (line.slice(1).trim() === '' || /^>\s/.test(line)) return `FASTA line ${i + 1}: a header needs a name`;
      continue;
    }
    if (!SEQUENCE.test(line.trim())) return `FASTA line ${i + 1}: not a sequence line`;
    residues += line.trim().length;
  }
  return complete && residues === 0 ? 'the FASTA file holds no sequence' : null;
}

const STRAND = new Set(['+', '-', '.', '?']);
const POSITIVE = /^\d+$/;

/** Checks the nine tab-separated columns GTF and GFF3 share (GFF3 spec, GTF2.2 spec). */
function featureLineProblem(cols: string[], type: 'gtf' | 'gff3'): string | null {
  if (cols.length !== 9) return `${cols.length} tab-separated columns, expected 9`;
  const [seqid, , , start, end, score, strand, phase, attributes] = cols as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (seqid === '') return 'an empty sequence name';
  if (!POSITIVE.test(start) || !POSITIVE.test(end)) return 'start and end must be whole numbers';
  if (Number(start) < 1 || Number(end) < Number(start)) return 'start must be >= 1 and end >= start';
  if (score !== '.' && !Number.isFinite(Number(score))) return 'the score must be a number or "."';
  if (!STRAND.has(strand)) return 'the strand must be +, - or .';
  if (!['.', '0', '1', '2'].includes(phase)) return 'the phase must be 0, 1, 2 or "."';
  if (type === 'gtf' && attributes !== '.' && !/^\s*\w+ +"[^"]*"/.test(attributes)) {
    return 'GTF attributes are written key "value"; (gene_id "...")';
  }
  if (type === 'gff3' && attributes !== '.' && !/^[^=;\s][^=;]*=[^;]*(;|$)/.test(attributes)) {
    return 'GFF3 attributes are written key=value;';
  }
  return null;
}

function featuresProblem(text: string, complete: boolean, type: 'gtf' | 'gff3'): string | null {
  const lines = wholeLines(text, complete);
  const name = type === 'gtf' ? 'GTF' : 'GFF3';
  if (type === 'gff3' && lines.length > 0 && !/^##gff-version\s+3/.test(lines[0]!)) {
    return 'a GFF3 file starts with "##gff-version 3"';
  }
  let records = 0;
  for (const [i, line] of lines.entries()) {
    if (line.startsWith('##FASTA') || line.startsWith('>')) break; // GFF3's embedded sequences
    if (line === '' || line.startsWith('#')) continue;
    const bad = featureLineProblem(line.split('\t'), type);
    if (bad) return `${name} line ${i + 1}: ${bad}`;
    if (++records >= CHECK_LINES) break;
  }
  return complete && records === 0 ? `the ${name} file holds no features` : null;
}

/** BED: UCSC's browser extensible data, 0-based half-open; track/browser lines allowed. */
function bedProblem(text: string, complete: boolean): string | null {
  let records = 0;
  for (const [i, line] of wholeLines(text, complete).entries()) {
    if (line.trim() === '' || line.startsWith('#') || /^(track|browser)\b/.test(line)) continue;
    const cols = line.split(/\t| +/);
    if (cols.length < 3) return `BED line ${i + 1}: at least chrom, start and end are needed`;
    const [chrom, start, end] = cols as [string, string, string];
    if (chrom === '') return `BED line ${i + 1}: an empty chromosome name`;
    if (!POSITIVE.test(start) || !POSITIVE.test(end) || Number(end) < Number(start)) {
      return `BED line ${i + 1}: start and end must be whole numbers with start <= end`;
    }
    if (++records >= CHECK_LINES) break;
  }
  return complete && records === 0 ? 'the BED file holds no intervals' : null;
}

/** Null when `text` (the head of a file, or all of it when `complete`) reads as `type`. */
export function referenceProblem(type: ReferenceType, text: string, complete: boolean): string | null {
  switch (type) {
    case 'fasta':
      return fastaProblem(text, complete);
    case 'gtf':
    case 'gff3':
      return featuresProblem(text, complete, type);
    case 'bed':
      return bedProblem(text, complete);
  }
}
