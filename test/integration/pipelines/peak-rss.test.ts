/**
 * A built-in tool's worker reports its own peak memory (self-usage.ts), not its parent's. On
 * Linux getrusage's maxRSS keeps the high-water mark from before the exec, so a worker spawned
 * by a service holding hundreds of megabytes said it had used at least as much. Here this
 * process holds 300 MB while it spawns a small worker that prints both figures: the one the
 * worker's usage message carries stays near the worker's own size, maxRSS does not.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp';

const MB = 1024 * 1024;
const SELF_USAGE = join(__dirname, '../../../src/service/engines/self-usage.ts');

describe.runIf(process.platform === 'linux')("a worker's peak memory", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('is its own, not the memory its parent held when it was spawned', () => {
    const script = join(dir.path, 'worker.ts');
    writeFileSync(
      script,
      `import { startUsage, usageMessage } from ${JSON.stringify(SELF_USAGE)};\n` +
        `const m = usageMessage('QC', startUsage());\n` +
        `console.log(JSON.stringify({ own: m.max_rss_bytes, maxRSS: process.resourceUsage().maxRSS * 1024 }));\n`,
    );
    const held = Buffer.alloc(300 * MB, 1);
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(held[held.length - 1]).toBe(1);
    expect(r.status, r.stderr).toBe(0);
    const { own, maxRSS } = JSON.parse(r.stdout) as { own: number; maxRSS: number };
    // The inherited figure is what the usage message carried before.
    expect(maxRSS).toBeGreaterThan(300 * MB);
    expect(own).toBeGreaterThan(10 * MB);
    expect(own).toBeLessThan(200 * MB);
  });
});
