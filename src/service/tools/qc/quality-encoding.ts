/**
 * The quality encoding of a FASTQ file, found as FastQC finds it (PhredEncoding, from the lowest
 * quality character of the file): below '@' (64) Phred+33 ("Sanger / Illumina 1.9"), 'A' (65)
 * "Illumina 1.3", else "Illumina 1.5" (both Phred+64, Illumina pipelines 1.3 to 1.7). FastQC
 * takes Solexa+64 files (lowest ';' to '?', 59 to 63) for Phred+33; they are told apart here by
 * their highest character above 'J' (74), which Illumina 1.8+ Phred+33 reads never reach. Unlike
 * FastQC, a file with only high qualities ('F' to 'J') stays Phred+33 (FastQC calls it
 * Illumina 1.5: the limitation its maintainers acknowledge in FastQC issue 212).
 */
import { QUAL_SLOTS } from './qc-counts';

/** 'J': Q41, the highest quality Illumina 1.8+ writes in Phred+33. */
const PHRED33_HIGHEST = 74;

export interface QualityEncoding {
  /** FastQC's name ("Sanger / Illumina 1.9", "Illumina 1.3", "Illumina 1.5"), or "Solexa". */
  name: string;
  /** The ASCII offset of quality 0. */
  offset: 33 | 64;
  lowest_char: string;
  highest_char: string;
}

/** The lowest and highest quality bytes seen in a per-cycle quality histogram. */
function range(qualHist: Float64Array): [number, number] {
  let lo = QUAL_SLOTS;
  let hi = -1;
  for (let i = 0; i < qualHist.length; i++) {
    if (!qualHist[i]) continue;
    const v = i % QUAL_SLOTS;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** The file's encoding; null when it has no quality characters. */
export function detectEncoding(qualHist: Float64Array): QualityEncoding | null {
  const [lo, hi] = range(qualHist);
  if (hi < 0) return null;
  const chars = { lowest_char: String.fromCharCode(lo), highest_char: String.fromCharCode(hi) };
  if (lo >= 59 && lo < 64 && hi > PHRED33_HIGHEST) return { name: 'Solexa', offset: 64, ...chars };
  // FastQC calls a file whose qualities are all high ('I' = Q40 only, say) Illumina 1.5; a Phred+64
  // file always has qualities above 'J' (Q10 there), a Phred+33 file of today none.
  if (lo < 64 || hi <= PHRED33_HIGHEST) return { name: 'Sanger / Illumina 1.9', offset: 33, ...chars };
  if (lo === 65) return { name: 'Illumina 1.3', offset: 64, ...chars };
  return { name: 'Illumina 1.5', offset: 64, ...chars };
}

/** How a run treats a Phred+64 (or Solexa) file: refuse it (default), or read it with offset 64. */
export type EncodingChoice = 'auto' | 'phred64';

/** The refusal of a Phred+64 file read without asking for it, in a technician's words. */
export function encodingRefusal(file: string, e: QualityEncoding): string {
  return `${file}: qualities are ${e.name === 'Solexa' ? 'Solexa+64' : 'Phred+64'} (${e.name}; lowest quality character '${e.lowest_char}'), not the Phred+33 of current instruments: read as Phred+33 every base would count as Q30. Run QC with quality_encoding=phred64 (laneway qc --phred64) to read them with offset 64, or convert the file (seqtk seq -Q64 -V)`;
}
