/**
 * The queue's real send window with a gate the test holds: it lets `before` chunks reach the
 * service (a chunk that fails gives its place back, so a retry may take it), then grants no more
 * until `release()`. A test that kills the service mid-upload kills it at a known
 * point this way (those chunks on the service, the rest not sent), where racing the kill against
 * the upload let a loaded machine's service receive every chunk first: the queue then never went
 * offline and the test waited for it until its timeout.
 */
import { SendWindow, type Ticket } from '../../../src/main/core/uploads/send-window';

export class GatedWindow extends SendWindow {
  private granted = 0;
  private acked = 0;
  private open: () => void = () => {};
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  private allAcked: () => void = () => {};
  /** Resolves once the chunks let through before the gate have all been acknowledged. */
  readonly firstAcked = new Promise<void>((resolve) => (this.allAcked = resolve));

  constructor(private readonly before: number) {
    super();
  }

  override async acquire(job: number, bytes: number, signal?: AbortSignal): Promise<Ticket> {
    if (this.granted++ >= this.before) {
      // A stopped queue's job must not wait on the gate for ever.
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(new Error('aborted'));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        void this.gate.then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    return super.acquire(job, bytes, signal);
  }

  override ack(t: Ticket): void {
    super.ack(t);
    if (++this.acked === this.before) this.allAcked();
  }

  override congested(t: Ticket): void {
    this.granted--;
    super.congested(t);
  }

  override release(t: Ticket): void {
    this.granted--;
    super.release(t);
  }

  /** Lets every further chunk go. */
  openGate(): void {
    this.open();
  }
}
