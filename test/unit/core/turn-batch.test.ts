/**
 * The core's events leave once per turn of the event loop: what is pushed in one turn goes as
 * one batch in order, a flush sends at once (ahead of a call's result), and a disposed batch
 * sends nothing.
 */
import { describe, expect, it } from 'vitest';
import { createTurnBatch } from '../../../src/main/core/turn-batch';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createTurnBatch', () => {
  it('sends what one turn pushed as one batch, in order, and the next turn apart', async () => {
    const sent: number[][] = [];
    const batch = createTurnBatch<number>((items) => sent.push(items));
    for (let i = 0; i < 1000; i++) batch.push(i);
    expect(sent).toEqual([]);
    await nextTurn();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    batch.push(1000);
    await nextTurn();
    expect(sent).toEqual([sent[0], [1000]]);
  });

  it('flushes at once, and the turn that follows sends nothing twice or empty', async () => {
    const sent: string[][] = [];
    const batch = createTurnBatch<string>((items) => sent.push(items));
    batch.push('a');
    batch.push('b');
    batch.flush();
    expect(sent).toEqual([['a', 'b']]);
    batch.flush();
    batch.push('c');
    await nextTurn();
    await nextTurn();
    expect(sent).toEqual([['a', 'b'], ['c']]);
  });

  it('drops what is pending when disposed and takes nothing after', async () => {
    const sent: string[][] = [];
    const batch = createTurnBatch<string>((items) => sent.push(items));
    batch.push('lost');
    batch.dispose();
    batch.push('after');
    batch.flush();
    await nextTurn();
    expect(sent).toEqual([]);
  });
});
