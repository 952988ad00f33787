/**
 * The upload queue's send window against a simulated link on a fake clock (time is the only
 * fake): a bottleneck of a given rate with a given round trip, chunks queued at it in order.
 * The window grows on a link with a large bandwidth-delay product until the link is full,
 * halves on a 503, stays small on a short link, and serves jobs in turn.
 */
import { describe, expect, it } from 'vitest';
import { SendWindow, type Ticket } from '../../../src/main/core/uploads/send-window';

const MB = 1_000_000;

/** A link: `rate` bytes per ms through one bottleneck, then `rttMs` for the chunk and its answer. */
function simulate(rate: number, rttMs: number, window: SendWindow, clock: { now: number }) {
  let freeAt = 0;
  const events: Array<{ at: number; run: () => void }> = [];
  let delivered = 0;
  const deliveries: Array<{ at: number; bytes: number }> = [];
  /** What the service answers to the nth chunk (a test may make one a 503). */
  let answer: (n: number) => 'ok' | 'overloaded' = () => 'ok';
  let sent = 0;
  let afterShrink = Infinity;
  const send = (t: Ticket) => {
    const n = sent++;
    freeAt = Math.max(clock.now, freeAt) + t.bytes / rate;
    events.push({
      at: freeAt + rttMs,
      run: () => {
        if (answer(n) === 'overloaded') {
          window.congested(t);
          afterShrink = window.limit;
          return;
        }
        delivered += t.bytes;
        deliveries.push({ at: clock.now, bytes: t.bytes });
        window.ack(t);
      },
    });
  };
  /** Runs the events up to `until` ms, letting granted chunks go in between. */
  const run = async (until: number) => {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      events.sort((a, b) => a.at - b.at);
      const next = events[0];
      if (!next || next.at > until) break;
      events.shift();
      clock.now = next.at;
      next.run();
    }
    clock.now = until;
  };
  /** Bytes per ms delivered within the last `ms` before now. */
  const rateOver = (ms: number) =>
    deliveries.filter((d) => d.at > clock.now - ms).reduce((n, d) => n + d.bytes, 0) / ms;
  return {
    send,
    run,
    rateOver,
    get delivered() {
      return delivered;
    },
    setAnswer(f: (n: number) => 'ok' | 'overloaded') {
      answer = f;
    },
    get afterShrink() {
      return afterShrink;
    },
    get sent() {
      return sent;
    },
  };
}

/** A job sending chunks of `bytes` for as long as the test runs. */
function job(id: number, bytes: number, window: SendWindow, link: { send(t: Ticket): void }, stop: AbortSignal) {
  void (async () => {
    while (!stop.aborted) {
      const t = await window.acquire(id, bytes, stop).catch(() => null);
      if (!t) return;
      link.send(t);
    }
  })();
}

describe('the send window', () => {
  it('grows on a link with a large bandwidth-delay product until the link is full, and halves on a 503', async () => {
    const clock = { now: 0 };
    const window = new SendWindow({ now: () => clock.now, initialBytes: 2 * MB });
    // 400 Mbit/s (50,000 bytes per ms) and 80 ms of round trip: 4 MB in flight fill it.
    const link = simulate(50_000, 80, window, clock);
    const stop = new AbortController();
    job(1, MB, window, link, stop.signal);
    await link.run(3_000);
    expect(window.limit).toBeGreaterThan(2 * 4 * MB);
    expect(window.peakBytes).toBeGreaterThan(2 * MB);
    // Full: at least 90% of the link's rate over the last second.
    expect(link.rateOver(1_000)).toBeGreaterThan(0.9 * 50_000);
    const before = window.limit;
    const overloaded = link.sent;
    link.setAnswer((n) => (n === overloaded ? 'overloaded' : 'ok'));
    await link.run(clock.now + 1_000);
    expect(window.shrinks).toBe(1);
    // Halved at the 503, then growing again by a chunk per round trip while the link delivers.
    expect(link.afterShrink).toBeLessThanOrEqual(before / 2 + MB);
    await link.run(clock.now + 5_000);
    expect(link.rateOver(1_000)).toBeGreaterThan(0.9 * 50_000);
    stop.abort();
  });

  it('halves at once on a 503, however large it was, and never below its floor', () => {
    const clock = { now: 0 };
    const window = new SendWindow({ now: () => clock.now, initialBytes: 32 * MB, minBytes: MB });
    const grant = (): Promise<Ticket> => window.acquire(1, MB);
    return (async () => {
      for (const expected of [16, 8, 4, 2, 1, 1]) {
        const t = await grant();
        window.congested(t);
        expect(window.limit).toBe(expected * MB);
      }
    })();
  });

  it('lets two chunks larger than the window go before the first answer, but a one-chunk window only one (issue 21)', async () => {
    const chunk = 8 * 1024 * 1024;
    const opening = new SendWindow({ now: () => 0, initialBytes: 4 * 1024 * 1024 });
    const granted: Ticket[] = [];
    for (let i = 0; i < 3; i++) void opening.acquire(1, chunk).then((t) => granted.push(t));
    await new Promise((r) => setImmediate(r));
    expect(granted).toHaveLength(2);
    // Once answered, the window is what the samples say.
    opening.ack(granted[0]!);
    await new Promise((r) => setImmediate(r));
    expect(granted).toHaveLength(3);

    const fixed = new SendWindow({ now: () => 0, initialBytes: chunk, minBytes: chunk, maxBytes: chunk });
    const one: Ticket[] = [];
    for (let i = 0; i < 2; i++) void fixed.acquire(1, chunk).then((t) => one.push(t));
    await new Promise((r) => setImmediate(r));
    expect(one).toHaveLength(1);
  });

  it('stays small on a short link (loopback), where a large window only queues', async () => {
    const clock = { now: 0 };
    const window = new SendWindow({ now: () => clock.now, initialBytes: 8 * MB });
    const link = simulate(300_000, 0.2, window, clock); // 300 MB/s, 0.2 ms
    const stop = new AbortController();
    job(1, 100_000, window, link, stop.signal);
    await link.run(200);
    // Twice the product of rate and round trip (a chunk's own time on the wire included), plus one chunk.
    expect(window.limit).toBeLessThan(2 * MB);
    expect(link.rateOver(100)).toBeGreaterThan(0.9 * 300_000);
    stop.abort();
  });

  it('lets 16 small chunks go whatever the window (a small file costs a round trip, not bytes), half as many after a 503', async () => {
    const window = new SendWindow({ initialBytes: 256 * 1024, minBytes: 256 * 1024 });
    const granted: Ticket[] = [];
    for (let j = 0; j < 20; j++) void window.acquire(j, 100_000).then((t) => granted.push(t));
    await new Promise((r) => setImmediate(r));
    expect(granted).toHaveLength(16);
    expect(window.admits(100_000)).toBe(false);
    window.congested(granted[0]!);
    // Down to 8 small chunks: 15 are in flight, so none goes until 8 of them are answered.
    for (const t of granted.slice(1, 8)) window.release(t);
    await new Promise((r) => setImmediate(r));
    expect(granted).toHaveLength(16);
    window.release(granted[8]!);
    await new Promise((r) => setImmediate(r));
    expect(granted).toHaveLength(17);
    // A large chunk still waits for room in the window.
    expect(window.admits(2 * MB)).toBe(false);
  });

  it('serves waiting jobs in turn, one chunk each', async () => {
    const window = new SendWindow({ initialBytes: MB, minBytes: MB, maxBytes: MB, minSmallChunks: 0 });
    let held = await window.acquire(1, MB);
    const granted: Ticket[] = [];
    for (const j of [1, 1, 2, 2, 3]) void window.acquire(j, MB).then((t) => granted.push(t));
    for (let i = 0; i < 5; i++) {
      window.release(held);
      await new Promise((r) => setImmediate(r));
      expect(granted).toHaveLength(i + 1);
      held = granted[i]!;
    }
    expect(granted.map((t) => t.job)).toEqual([1, 2, 3, 1, 2]);
  });
});
