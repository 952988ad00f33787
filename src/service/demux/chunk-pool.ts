/**
 * The input buffers of the demultiplexer, shared with its output thread. Readers fill chunks
 * (SharedArrayBuffer memory, so the output thread copies records straight out of them) and the
 * parsing thread sends only offsets. A chunk a reader has moved past is retired: it is reused
 * once the output thread has acknowledged every batch of copy operations that could name it.
 */

export interface Chunk {
  buf: Buffer;
  /** The name the output thread knows the chunk by. */
  id: number;
}

export class ChunkPool {
  private readonly free: Chunk[] = [];
  /** Retired chunks not yet sealed by a sent batch. */
  private pending: Chunk[] = [];
  /** Retired chunks, free once the batch `after` is acknowledged. */
  private readonly sealed: Array<{ chunk: Chunk; after: number }> = [];
  private nextId = 0;
  private readonly made: Chunk[] = [];
  private created: ((chunk: Chunk) => void) | null = null;

  /** `created` is told of every chunk (those made so far at once), before an operation names it. */
  onCreate(created: (chunk: Chunk) => void): void {
    this.created = created;
    for (const chunk of this.made.splice(0)) created(chunk);
  }

  /** A chunk of at least `size` bytes: a free one, or a new one. */
  take(size: number): Chunk {
    const free = this.free;
    for (let i = 0; i < free.length; i++) {
      if (free[i]!.buf.length >= size) {
        const chunk = free[i]!;
        free[i] = free[free.length - 1]!;
        free.pop();
        return chunk;
      }
    }
    const chunk = { buf: Buffer.from(new SharedArrayBuffer(size)), id: this.nextId++ };
    if (this.created) this.created(chunk);
    else this.made.push(chunk);
    return chunk;
  }

  /** A reader no longer looks at this chunk; operations already emitted may still name it. */
  retire(chunk: Chunk): void {
    this.pending.push(chunk);
  }

  /** Every operation naming the chunks retired so far is in batch `seq` or before. */
  seal(seq: number): void {
    for (const chunk of this.pending) this.sealed.push({ chunk, after: seq });
    this.pending = [];
  }

  /** The output thread has executed every batch up to `seq`. */
  acknowledged(seq: number): void {
    let kept = 0;
    for (const s of this.sealed) {
      if (s.after <= seq) this.free.push(s.chunk);
      else this.sealed[kept++] = s;
    }
    this.sealed.length = kept;
  }
}
