/**
 * The input buffers of the demultiplexer, lent to its output thread. Readers fill chunks and the
 * parsing thread sends the output thread only offsets into them (copy operations). A chunk a
 * reader has moved past is retired: it is transferred (not copied, and not shared: copies out
 * of shared memory are twice as slow) to the output thread, which copies the records out of it
 * and transfers it back for reuse.
 */

export interface Chunk {
  buf: Buffer;
  /** The name copy operations give the chunk. */
  id: number;
}

export class ChunkPool {
  private readonly free: Chunk[] = [];
  /** Retired before anyone listened. */
  private early: Chunk[] = [];
  private onRetire: ((chunk: Chunk) => void) | null = null;
  private nextId = 0;
  /** Chunks taken and not yet retired: operations naming them cannot run yet. */
  readonly held = new Set<number>();
  /** Chunks lent to the output thread, not yet back. */
  lent = 0;
  /** Each chunk's bytes by id, for copy operations run on this thread (see OutputSink). */
  readonly buffers: Buffer[] = [];

  /** `retired` receives each chunk a reader no longer looks at (all its operations emitted). */
  listen(retired: (chunk: Chunk) => void): void {
    this.onRetire = retired;
    for (const chunk of this.early.splice(0)) this.retire(chunk);
  }

  /** A chunk of at least `size` bytes: a returned one, or a new one. */
  take(size: number): Chunk {
    const free = this.free;
    let chunk: Chunk | undefined;
    for (let i = 0; i < free.length; i++) {
      if (free[i]!.buf.length >= size) {
        chunk = free[i]!;
        free[i] = free[free.length - 1]!;
        free.pop();
        break;
      }
    }
    // Its own ArrayBuffer (never the shared pool's), so that it can be transferred.
    chunk ??= { buf: Buffer.allocUnsafeSlow(size), id: this.nextId++ };
    this.buffers[chunk.id] = chunk.buf;
    this.held.add(chunk.id);
    return chunk;
  }

  /** A reader no longer looks at this chunk. */
  retire(chunk: Chunk): void {
    if (!this.onRetire) {
      this.early.push(chunk);
      return;
    }
    this.held.delete(chunk.id);
    this.lent++;
    this.onRetire(chunk);
  }

  /** A retired chunk whose operations ran on this thread: free again, never transferred. */
  reuse(chunk: Chunk): void {
    this.lent--;
    this.free.push(chunk);
  }

  /** The output thread is done with a chunk. */
  returned(id: number, memory: ArrayBuffer): void {
    this.lent--;
    const buf = Buffer.from(memory);
    // Operations naming it may still run here (batches the thread handed back unrun).
    this.buffers[id] = buf;
    this.free.push({ buf, id });
  }
}
