/**
 * `fn` over every item with at most `limit` calls under way at once; results in the items'
 * order. A proposal checks each of a plate's samples against the service: one request after
 * another, 2,000 samples cost 2,000 round trips before the technician saw the proposal.
 */
export async function mapInFlight<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
