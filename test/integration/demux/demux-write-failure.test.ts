/**
 * A header lane written to a full disk fails `laneway demux` with fs's own error, whether its
 * plain copies go into the blocks in C (native/demux-copy.c) or through the JavaScript writer
 * (LANEWAY_DEMUX_NATIVE=0): "ENOSPC: no space left on device,
 * write", exit code 1, and no report written. The disk is a small tmpfs mounted by the test
 * (root only: elsewhere the test says why it skips).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { generateLane } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';

const isRoot = process.getuid?.() === 0;

describe.skipIf(!isRoot)('demultiplexing onto a full disk (root: mounts a tmpfs)', () => {
  const dir = tempDir();
  let mountPoint = '';
  let lane: ReturnType<typeof generateLane>;

  beforeAll(() => {
    // 20,000 reads of 150 bases: some 8 MB of output for a 1 MB disk.
    lane = generateLane({ dir: dir.path, reads: 20_000, samples: 4, kind: 'header', seed: 11 });
    writeFileSync(
      join(dir.path, 'sheet.csv'),
      `Sample Name,Barcode,Organism,Category\n${lane.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,RNA`).join('\n')}\n`,
    );
    mountPoint = mkdtempSync(join(tmpdir(), 'laneway-demux-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
  });
  afterAll(() => {
    if (mountPoint) {
      execFileSync('umount', [mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
    dir.remove();
  });

  it.each([
    ['straight from the chunks (native)', {}],
    ['through the JavaScript writer', { LANEWAY_DEMUX_NATIVE: '0' }],
  ])('fails with the reason, %s', async (_, env: Record<string, string>) => {
    const out = join(mountPoint, `out-${Object.keys(env).length}`);
    mkdirSync(out);
    const cli = runCli(
      ['demux', '--sheet', join(dir.path, 'sheet.csv'), '--input', lane.read1, '--mismatches', '1', '--out', out],
      env,
    );
    const { code } = await cli.exit;
    expect(code).toBe(1);
    expect(cli.stderr()).toMatch(/ENOSPC: no space left on device, write$/m);
    expect(existsSync(join(out, 'demux-report.json'))).toBe(false);
    rmSync(out, { recursive: true, force: true });
  });
});
