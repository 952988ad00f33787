/**
 * Byte-identical outputs (issue 21 item 3): the demultiplexer's outputs on generated lanes of
 * every index design (read headers as BCL Convert writes them, single and dual; I1/I2 files;
 * bcl2fastq's headers; two mismatches; an i5 written reverse-complemented in the sheet; CRLF
 * line ends; N bases, short and long index fields, headers without an index; gzip; paired) and
 * of the inline designs (demux-golden-cases.ts), as sha256 of every output file's bytes
 * (decompressed for gzip, whose member boundaries are the engine's own business) and of
 * demux-report.json without its time. The hashes in demux-golden.json were computed with the
 * engine as it was before the header fast path; `LANEWAY_WRITE_DEMUX_GOLDEN=1` writes them anew
 * (only ever with that engine).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DemuxInput } from '../../../src/service/tools/demux/demultiplexer';
import type { OutputChooser, OutputMode } from '../../../src/service/tools/demux/output-mode';
import { tempDir } from '../../helpers/temp';
import { GOLDEN_CASES, goldenHashes, goldenLane, type Hashes } from './demux-golden-cases';

/** Moves the files to the other thread at every call (every 1,024 reads): hand-overs both ways. */
function everyCall(): OutputChooser & { seen: Set<OutputMode> } {
  const seen = new Set<OutputMode>();
  return { seen, next: (mode) => (seen.add(mode), mode === 'here' ? 'thread' : 'here') };
}

const GOLDEN = new URL('./demux-golden.json', import.meta.url);
const writing = process.env.LANEWAY_WRITE_DEMUX_GOLDEN === '1';

describe('demultiplexed outputs are byte-identical to the engine before the header fast path', () => {
  const dir = tempDir('laneway-golden-');
  const golden = existsSync(GOLDEN) ? (JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, Hashes>) : {};
  const written: Record<string, Hashes> = {};
  afterAll(() => {
    if (writing) writeFileSync(GOLDEN, `${JSON.stringify(written, null, 2)}\n`);
    dir.remove();
  });

  it.each(GOLDEN_CASES)('$name', async (c) => {
    const laneDir = join(dir.path, c.name.replace(/\W+/g, '-'));
    const lane = goldenLane(c, laneDir);
    // As `laneway demux` runs it: the header fast path, the output on this thread (a small lane).
    const hashes = await goldenHashes(c, lane, join(laneDir, 'out'));
    written[c.name] = hashes;
    if (writing) return;
    expect(hashes).toEqual(golden[c.name]);
    // For index designs, the general handler with the output thread (the engine before), and for the large lane the
    // fast path with the thread: the same bytes.
    const others: Array<Partial<DemuxInput>> = [];
    if (c.name.includes('index')) others.push({ engine: 'generic', outputThread: true });
    // Header lanes: the fast path without its native scan (native-scan.ts), which ran above.
    if (c.name.startsWith('header')) others.push({ engine: 'js' });
    if (c.name.includes('many chunks')) others.push({ outputThread: true });
    for (const [k, extra] of others.entries()) {
      expect(await goldenHashes(c, lane, join(laneDir, `out-${k}`), extra), JSON.stringify(extra)).toEqual(hashes);
    }
    // The files moving between the threads every 1,024 reads, both ways: the same bytes.
    const switching = everyCall();
    const moved = { outputThread: true, outputChooser: switching };
    // The thread's messages reach this process's stderr: it must have nothing to say (a
    // descriptor closed by the thread that did not open it makes Node warn).
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
      said.push(String(chunk));
      return write(chunk as string, ...(rest as []));
    });
    try {
      expect(await goldenHashes(c, lane, join(laneDir, 'out-switching'), moved), 'switching').toEqual(hashes);
    } finally {
      spy.mockRestore();
    }
    expect([...switching.seen].sort()).toEqual(['here', 'thread']);
    expect(said.join('')).not.toMatch(/Warning|File descriptor/);
  });
});
