/**
 * The report-view ticket book (ctx.parts.reportViews): a ticket opens its record until it
 * expires, an unknown one opens nothing, and expired tickets are swept rather than kept. Time is
 * the test's clock.
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/service/context';
import { REPORT_VIEW_TICKET_MS, ReportViewTickets } from '../../../src/service/data/report-view-tickets';

describe('report view tickets', () => {
  it('opens its record until it expires, then nothing', () => {
    let now = 1_000_000;
    const clock: Clock = { now: () => now };
    const book = new ReportViewTickets(clock);
    const { ticket, expires } = book.issue(7);
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(expires).toBe(now + REPORT_VIEW_TICKET_MS);
    expect(book.open(ticket)).toBe(7);
    // Opened again (the frame reloads) while it lives.
    now = expires - 1;
    expect(book.open(ticket)).toBe(7);
    now = expires;
    expect(book.open(ticket)).toBeNull();
    expect(book.open('made-up')).toBeNull();
  });

  it('gives each ticket its own address and record', () => {
    const book = new ReportViewTickets({ now: () => 0 });
    const a = book.issue(1);
    const b = book.issue(2);
    expect(a.ticket).not.toBe(b.ticket);
    expect(book.open(a.ticket)).toBe(1);
    expect(book.open(b.ticket)).toBe(2);
  });

  it('sweeps expired tickets instead of keeping them', () => {
    let now = 0;
    const book = new ReportViewTickets({ now: () => now }, 1_000);
    for (let i = 0; i < 50; i++) book.issue(i);
    expect(book.size).toBe(50);
    now = 999;
    book.issue(99);
    expect(book.size).toBe(51);
    now = 1_000;
    book.issue(100);
    // The 50 first expired at 1,000 and went with this sweep; the one issued at 999 is still live.
    expect(book.size).toBe(2);
  });
});
