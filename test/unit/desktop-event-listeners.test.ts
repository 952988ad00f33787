/**
 * The page's end of the core's events, shared by the preload's IPC bridge and browser mode's
 * socket: a batch is delivered in order to each event's listeners, a listener that throws is
 * reported without costing the others their events, and the first and last listener of an
 * event are told apart (the socket subscribes and unsubscribes on them).
 */
import { describe, expect, it } from 'vitest';
import { createEventListeners } from '../../src/shared/desktop-api/event-listeners';

describe('createEventListeners', () => {
  it('delivers a batch in order, each event to its own listeners only', () => {
    const errors: unknown[] = [];
    const listeners = createEventListeners((e) => errors.push(e));
    const seen: string[] = [];
    listeners.add('uploads:job-changed', (p) => seen.push(`job ${String(p)}`));
    listeners.add('watchers:event', (p) => seen.push(`watcher ${String(p)}`));
    listeners.deliverAll([
      { event: 'uploads:job-changed', payload: 1 },
      { event: 'watchers:event', payload: 2 },
      { event: 'uploads:job-changed', payload: 3 },
      { event: 'nobody:listens', payload: 4 },
    ]);
    expect(seen).toEqual(['job 1', 'watcher 2', 'job 3']);
    expect(errors).toEqual([]);
  });

  it('reports a listener that throws, and the others and the rest of the batch still get theirs', () => {
    const errors: unknown[] = [];
    const listeners = createEventListeners((e) => errors.push(e));
    const seen: unknown[] = [];
    const boom = new Error('a screen failed');
    listeners.add('uploads:job-changed', () => {
      throw boom;
    });
    listeners.add('uploads:job-changed', (p) => seen.push(p));
    listeners.deliverAll([
      { event: 'uploads:job-changed', payload: 'a' },
      { event: 'uploads:job-changed', payload: 'b' },
    ]);
    expect(seen).toEqual(['a', 'b']);
    expect(errors).toEqual([boom, boom]);
  });

  it('tells the first listener of an event and the removal of its last', () => {
    const listeners = createEventListeners(() => {});
    const one = listeners.add('uploads:job-changed', () => {});
    const two = listeners.add('uploads:job-changed', () => {});
    expect([one.first, two.first]).toEqual([true, false]);
    expect(listeners.names()).toEqual(['uploads:job-changed']);
    expect(one.remove()).toBe(false);
    expect(one.remove()).toBe(false);
    expect(two.remove()).toBe(true);
    expect(listeners.names()).toEqual([]);
    // A fresh first listener after the last went; the old handle no longer touches it.
    const three = listeners.add('uploads:job-changed', () => {});
    expect(three.first).toBe(true);
    expect(two.remove()).toBe(false);
    expect(listeners.names()).toEqual(['uploads:job-changed']);
  });
});
