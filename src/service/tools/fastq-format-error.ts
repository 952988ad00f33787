/**
 * A FASTQ input that breaks the format, as every built-in tool reports it (quality control and
 * trimming name the 1-based line within what they scanned; demultiplexing the file and the
 * record, which gives the line too).
 */
export class FastqFormatError extends Error {
  /** The 1-based line where the fault is (a record's header line when only the record is known). */
  readonly line: number;

  constructor(
    at: number | { file: string; record: number },
    readonly reason: string,
  ) {
    super(
      typeof at === 'number' ? `malformed FASTQ at line ${at}: ${reason}` : `${at.file}: record ${at.record} ${reason}`,
    );
    this.line = typeof at === 'number' ? at : (at.record - 1) * 4 + 1;
    this.name = 'FastqFormatError';
  }
}
