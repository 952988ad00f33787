/**
 * The order of an execution's outputs on its page: the MultiQC report first (the one
 * multi-sample view a technician opens first), then the other viewable reports, then the rest
 * in the service's order (issue 20 item 4: MultiQC came last among 21 rows of JSON and HTML).
 */
interface Output {
  filename: string;
  data_type?: string | null;
}

const isMultiqc = (o: Output) => o.data_type === 'multiqc' || /multiqc.*\.html?$/i.test(o.filename);
const isHtml = (o: Output) => o.data_type === 'html' || /\.html?$/i.test(o.filename);

/** A new array: MultiQC, then HTML reports, then everything else; stable within each. */
export function orderOutputs<T extends Output>(outputs: readonly T[]): T[] {
  const rank = (o: T) => (isMultiqc(o) ? 0 : isHtml(o) ? 1 : 2);
  return outputs
    .map((o, i) => ({ o, i }))
    .sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i)
    .map((x) => x.o);
}
