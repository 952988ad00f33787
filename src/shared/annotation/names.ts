/**
 * Sample names become file names (`NAME.fastq.gz`, `NAME_R1.fastq.gz`) on every platform a lab
 * uses, so a name must be a safe file name on Linux, macOS and Windows alike.
 */

/** The name of the file of reads that matched no barcode; no sample may take it. */
export const UNDETERMINED = 'Undetermined';

export const MAX_SAMPLE_NAME_LENGTH = 100;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * Why a sample name cannot be a file name, or null when it can. Names keep to the POSIX
 * portable file name characters (letters, digits, dot, dash, underscore), as the annotation
 * template tells technicians: such names survive every file system, shell and workflow engine.
 */
export function fileNameProblem(name: string): string | null {
  if (name.length > MAX_SAMPLE_NAME_LENGTH) return `is longer than ${MAX_SAMPLE_NAME_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'contains a control character';
  const bad = name.match(/[^A-Za-z0-9._-]/);
  if (bad) return `contains "${bad[0]}": use letters, digits, dot, dash and underscore only`;
  if (name === '.' || name === '..') return 'is not a file name';
  if (!/^[A-Za-z0-9]/.test(name)) return 'must start with a letter or digit';
  if (name.endsWith('.')) return 'ends with a dot, which Windows drops';
  if (WINDOWS_RESERVED.test(name)) return 'is a device name reserved by Windows';
  if (name.toLowerCase() === UNDETERMINED.toLowerCase()) return `is reserved for reads without a barcode`;
  return null;
}

/** The output file of one read of a sample: `NAME.fastq.gz` single-end, `NAME_R1.fastq.gz` paired. */
export function demuxFileName(sample: string, read: 1 | 2, paired: boolean, gz: boolean): string {
  const ext = gz ? '.fastq.gz' : '.fastq';
  return paired ? `${sample}_R${read}${ext}` : `${sample}${ext}`;
}
