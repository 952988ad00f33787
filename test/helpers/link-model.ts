/**
 * A model of a long network link for the tests and benchmarks, as a TCP proxy on 127.0.0.1
 * (the kernel here has no netem): every byte in each direction waits `delayMs` after it has
 * been put on the wire, and each direction's wire carries `mbit` Mbit/s shared by all
 * connections, in arrival order. A wire holds at most `bufferBytes` waiting to be sent (a
 * router's queue); past that the proxy stops reading the sender, so TCP's own flow control
 * pushes back as on a real bottleneck. Bytes are delivered in order per connection.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface LinkModelOptions {
  /** One-way delay of each direction, in ms (default 40). */
  delayMs?: number;
  /** Capacity of each direction, shared by all connections, in Mbit/s (default 400). */
  mbit?: number;
  /** Bytes a wire may hold waiting to be sent before the sender is paused (default 2 MiB). */
  bufferBytes?: number;
}

export interface LinkModel {
  url: string;
  port: number;
  /** Bytes carried client->service (up) and service->client (down). */
  carried: { up: number; down: number };
  close(): Promise<void>;
}

interface InFlight {
  at: number;
  /** null: the sender's end of stream, delivered in order after its bytes. */
  bytes: Buffer | null;
  to: Socket;
}

/** One direction of the link: serialisation at the link's rate, then the propagation delay. */
class Wire {
  private busyUntil = 0;
  private readonly flight: InFlight[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly paused = new Set<Socket>();
  private resumeTimer: NodeJS.Timeout | null = null;
  carried = 0;

  constructor(
    private readonly bytesPerMs: number,
    private readonly delayMs: number,
    private readonly bufferBytes: number,
  ) {}

  /** Puts bytes (null: the end) on the wire; answers false when the sender should wait (the queue is full). */
  send(bytes: Buffer | null, to: Socket): boolean {
    const now = performance.now();
    const length = bytes?.length ?? 0;
    this.busyUntil = Math.max(now, this.busyUntil) + length / this.bytesPerMs;
    this.flight.push({ at: this.busyUntil + this.delayMs, bytes, to });
    this.carried += length;
    this.arm(now);
    return this.backlog(now) <= this.bufferBytes;
  }

  /** Pauses a sender until the wire's queue has drained below its buffer. */
  hold(from: Socket): void {
    from.pause();
    this.paused.add(from);
    if (this.resumeTimer) return;
    const wait = () => {
      const now = performance.now();
      const over = this.backlog(now) - this.bufferBytes / 2;
      if (over > 0) {
        this.resumeTimer = setTimeout(wait, Math.max(1, over / this.bytesPerMs));
        return;
      }
      this.resumeTimer = null;
      for (const s of this.paused) if (!s.destroyed) s.resume();
      this.paused.clear();
    };
    wait();
  }

  private backlog(now: number): number {
    return Math.max(0, this.busyUntil - now) * this.bytesPerMs;
  }

  private arm(now: number): void {
    if (this.timer || this.head >= this.flight.length) return;
    this.timer = setTimeout(() => this.deliver(), Math.max(0, this.flight[this.head]!.at - now));
  }

  private deliver(): void {
    this.timer = null;
    const now = performance.now();
    // Timers fire at whole milliseconds: deliver what is due within half of one.
    while (this.head < this.flight.length && this.flight[this.head]!.at <= now + 0.5) {
      const { bytes, to } = this.flight[this.head]!;
      this.flight[this.head++] = undefined as unknown as InFlight;
      if (to.destroyed || to.writableEnded) continue;
      if (bytes) to.write(bytes);
      else to.end();
    }
    if (this.head > 4096 && this.head * 2 > this.flight.length) {
      this.flight.splice(0, this.head);
      this.head = 0;
    }
    this.arm(now);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
  }
}

/** Starts the link in front of `target` on an ephemeral loopback port. */
export async function startLinkModel(
  target: { host: string; port: number },
  options: LinkModelOptions = {},
): Promise<LinkModel> {
  const delay = options.delayMs ?? 40;
  const rate = ((options.mbit ?? 400) * 1e6) / 8 / 1000;
  const buffer = options.bufferBytes ?? 2 * 1024 * 1024;
  const up = new Wire(rate, delay, buffer);
  const down = new Wire(rate, delay, buffer);
  const sockets = new Set<Socket>();
  // Half-open sockets: an end must wait its turn on the wire, not be echoed at once.
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    const service = connect({ port: target.port, host: target.host, allowHalfOpen: true });
    for (const s of [client, service]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
      // A reset is not modelled in flight: both sides go at once.
      s.on('error', () => {
        client.destroy();
        service.destroy();
      });
    }
    const pipe = (from: Socket, to: Socket, wire: Wire) => {
      from.on('data', (bytes: Buffer) => {
        if (!wire.send(bytes, to)) wire.hold(from);
        // The receiver reads slowly (a busy service): push back instead of buffering here.
        if (to.writableLength > buffer) {
          from.pause();
          to.once('drain', () => from.resume());
        }
      });
      // The end of a stream travels the link like its bytes do, behind them.
      from.on('end', () => wire.send(null, to));
    };
    pipe(client, service, up);
    pipe(service, client, down);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    carried: {
      get up() {
        return up.carried;
      },
      get down() {
        return down.carried;
      },
    },
    async close() {
      up.close();
      down.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
