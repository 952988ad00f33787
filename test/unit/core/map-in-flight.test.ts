/**
 * mapInFlight (core/ingest/map-in-flight.ts), which looks a proposal's samples up on the service
 * several at once: never more than the limit under way, every item once, results in the items'
 * order whatever order the calls end in, and a failure is the whole call's.
 */
import { describe, expect, it } from 'vitest';
import { mapInFlight } from '../../../src/main/core/ingest/map-in-flight';

/** Calls that end when the test says, so the order of their ends is the test's choice. */
function controlled() {
  const pending: Array<{ item: number; end(): void }> = [];
  let inFlight = 0;
  let most = 0;
  const fn = (item: number) =>
    new Promise<string>((resolve) => {
      inFlight++;
      most = Math.max(most, inFlight);
      pending.push({
        item,
        end: () => {
          inFlight--;
          resolve(`r${item}`);
        },
      });
    });
  return { fn, pending, most: () => most };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('mapInFlight', () => {
  it('keeps the limit under way, and gives the results in the items order', async () => {
    const c = controlled();
    const items = Array.from({ length: 20 }, (_, i) => i);
    const all = mapInFlight(items, 8, c.fn);
    await settle();
    expect(c.pending.map((p) => p.item)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // End the open calls newest first, round after round: later items finish before earlier ones.
    for (let ended = 0; ended < items.length;) {
      const open = c.pending.splice(0);
      expect(open.length).toBeGreaterThan(0);
      for (const p of open.reverse()) p.end();
      ended += open.length;
      await settle();
    }
    expect(await all).toEqual(items.map((i) => `r${i}`));
    expect(c.most()).toBe(8);
  });

  it('handles no items and fewer items than the limit', async () => {
    expect(await mapInFlight([], 8, async (x: number) => x)).toEqual([]);
    expect(await mapInFlight([1, 2], 8, async (x) => x * 2)).toEqual([2, 4]);
  });

  it('rejects with the first failure', async () => {
    await expect(
      mapInFlight([1, 2, 3], 2, async (x) => {
        if (x === 2) throw new Error('service gone');
        return x;
      }),
    ).rejects.toThrow('service gone');
  });
});
