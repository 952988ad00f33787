/**
 * The short-lived tickets that open an HTML report in the app's sandboxed frame
 * (data-view.routes.ts): a random address stands for one data record until it expires. They
 * live on `ctx.parts.reportViews` (built by the composition root), so each service has its own
 * and a stopped service's tickets go with it. Expired tickets are swept whenever one is issued
 * or opened, so the book holds at most the tickets of the last few minutes.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../context';

/** How long a ticket opens its report: long enough to load the frame, short enough not to matter if it leaks. */
export const REPORT_VIEW_TICKET_MS = 5 * 60_000;

export interface IssuedTicket {
  ticket: string;
  /** Milliseconds since the epoch, on the service's clock. */
  expires: number;
}

export class ReportViewTickets {
  private readonly tickets = new Map<string, { dataId: number; expires: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = REPORT_VIEW_TICKET_MS,
  ) {}

  /** A new ticket for the record (24 random bytes, URL-safe). */
  issue(dataId: number): IssuedTicket {
    const now = this.clock.now();
    this.sweep(now);
    const ticket = randomBytes(24).toString('base64url');
    const expires = now + this.ttlMs;
    this.tickets.set(ticket, { dataId, expires });
    return { ticket, expires };
  }

  /** The record a live ticket opens, or null (unknown, or expired). A ticket may be opened again until it expires (the frame reloads). */
  open(ticket: string): number | null {
    this.sweep(this.clock.now());
    return this.tickets.get(ticket)?.dataId ?? null;
  }

  /** Tickets held now (expired ones included until the next sweep). */
  get size(): number {
    return this.tickets.size;
  }

  private sweep(now: number): void {
    for (const [key, t] of this.tickets) if (t.expires <= now) this.tickets.delete(key);
  }
}
