/**
 * The MultiQC report at the end of a run is a process of the run (`MultiQC report`): Debian's MultiQC
 * takes seconds even on a small run, and without a process of its own the run sat at "3 of 3
 * samples done" with nothing said. Real multiqc on real folders: one it reads nothing from, one
 * that does not exist (multiqc exits with an error), and a run cancelled before it starts.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { EngineSink } from '../../../src/service/engines/engine';
import { multiqcReport } from '../../../src/service/tools/multiqc/execution-report';
import { tempDir } from '../../helpers/temp';

// Debian's MultiQC takes seconds to start, more on a loaded machine (as in multiqc-escaping.test.ts).
vi.setConfig({ testTimeout: 180_000 });

function recordingSink() {
  const seen = { outputs: [] as string[], logs: [] as string[], processes: [] as string[] };
  const sink = {
    output: (p: string) => seen.outputs.push(p),
    log: (p: string, level: string, m: string) => seen.logs.push(`${p} ${level} ${m}`),
    process: (name: string, status: string) => seen.processes.push(`${name} ${status}`),
  } as unknown as EngineSink;
  return { sink, seen };
}

describe('the MultiQC step of a run', () => {
  const dir = tempDir('laneway-mqc-process-');
  afterAll(() => dir.remove());

  it('runs as the process "MultiQC report" and says when it found nothing to report', async () => {
    const { sink, seen } = recordingSink();
    await multiqcReport(dir.path, 'Empty (Test 1.0.0)', sink, new AbortController().signal);
    expect(seen.processes).toEqual(['MultiQC report running', 'MultiQC report completed']);
    expect(seen.outputs).toEqual([]);
    expect(seen.logs[0]).toBe('MultiQC report INFO MultiQC: building the report over the results of the run');
    expect(seen.logs.at(-1)).toBe('MultiQC report INFO MultiQC found no results it reads: no report');
  });

  it("a MultiQC that fails fails its process, in MultiQC's own words, and reports nothing", async () => {
    const { sink, seen } = recordingSink();
    await multiqcReport(join(dir.path, 'gone'), 'Gone (Test 1.0.0)', sink, new AbortController().signal);
    expect(seen.processes).toEqual(['MultiQC report running', 'MultiQC report failed']);
    expect(seen.outputs).toEqual([]);
    expect(seen.logs.at(-1)).toMatch(
      /^MultiQC report WARNING MultiQC failed: Invalid value for '\[ANALYSIS DIRECTORY\]': Path '.*gone' does not exist\.$/,
    );
  });

  it('a run cancelled meanwhile leaves the process to the cancel (not failed)', async () => {
    const { sink, seen } = recordingSink();
    const cancel = new AbortController();
    cancel.abort();
    await multiqcReport(dir.path, 'Cancelled (Test 1.0.0)', sink, cancel.signal);
    expect(seen.processes).toEqual(['MultiQC report running']);
    expect(seen.logs.some((l) => l.includes('failed'))).toBe(false);
  });
});
