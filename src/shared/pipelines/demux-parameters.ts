/**
 * The Demultiplexing pipeline's rules between its parameters (`builtin:demux`), checked at
 * launch: each of these launches once ran, and either failed later ("the job names no annotation
 * sheet") or completed on other inputs than the ones given (barcodes beside a sheet won silently;
 * index read 2 alone was ignored; one record as read 1 and read 2 was paired with itself). The
 * lane route and `laneway demux` refuse the same combinations.
 */

/** The file parameters that name a lane's reads, in the order a later one is checked against the earlier. */
const READ_FILES = ['input', 'input_read2', 'index_read1', 'index_read2'] as const;

/** Field → reason for each broken rule (empty when the combination is sound). */
export function demuxParameterProblems(values: Readonly<Record<string, unknown>>): Record<string, string> {
  const problems: Record<string, string> = {};
  const given = (name: string) => values[name] !== undefined && values[name] !== null && values[name] !== '';
  const barcodes = Array.isArray(values.barcodes) && values.barcodes.length > 0;
  if (!barcodes && !given('annotation')) problems.annotation = 'give an annotation sheet, or the barcodes';
  if (barcodes && given('annotation')) problems.barcodes = 'give the barcodes or an annotation sheet, not both';
  if (given('index_read2') && !given('index_read1')) problems.index_read2 = 'needs index read 1 (index_read1) too';
  return { ...problems, ...repeatedFiles(READ_FILES.map((name) => [name, values[name]])) };
}

/**
 * For a lane's read files as [field, data id or path]: each field that repeats an earlier one,
 * with the reason (`label` names the earlier field as the caller's form does).
 */
export function repeatedFiles(
  files: ReadonlyArray<readonly [field: string, value: unknown]>,
  label: (field: string) => string = (field) => field,
): Record<string, string> {
  const problems: Record<string, string> = {};
  files.forEach(([field, value], i) => {
    if (value === undefined || value === null || value === '') return;
    const earlier = files.slice(0, i).find(([, v]) => v === value);
    if (earlier) problems[field] = `must be another file than ${label(earlier[0])}`;
  });
  return problems;
}
