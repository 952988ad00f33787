/**
 * Waiting for the service's background work (mail, webhooks, executions) to show: the probe is
 * asked every 50 ms until it returns a value.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  ms = 30_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
