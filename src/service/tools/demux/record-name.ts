/** Read names in FASTQ headers, for the demultiplexer's writers. */
const SPACE = 32;
const CR = 13;

/** End of the read name: the first space of the header, or its end. */
export function nameEnd(b: Buffer, h0: number, h1: number): number {
  const sp = b.indexOf(SPACE, h0);
  if (sp >= 0 && sp < h1) return sp;
  return b[h1 - 1] === CR ? h1 - 1 : h1;
}
