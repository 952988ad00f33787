/**
 * Issue 20's smaller defects and the colleague's view, in the renderer's pure helpers: times in
 * prose, a watched run's samples by name, and what a shared project says it shares.
 */
import { describe, expect, it } from 'vitest';
import { humaniseTimes, formatTime } from '../../../src/renderer/src/ui/format';
import { runContents } from '../../../src/renderer/src/features/runs/run-samples';
import { sharedProjectNote } from '../../../src/renderer/src/features/projects/shared-project';

describe('times in prose', () => {
  it('turns ISO timestamps inside a sentence into local time and leaves the rest', () => {
    const iso = '2026-11-25T21:03:04.512Z';
    const text = `Your execution "QC" completed at ${iso}.\nOpen it in Laneway.`;
    const out = humaniseTimes(text);
    expect(out).not.toContain(iso);
    expect(out).toBe(`Your execution "QC" completed at ${formatTime(iso)}.\nOpen it in Laneway.`);
    expect(humaniseTimes('run 2026-11-25 of lane 3')).toBe('run 2026-11-25 of lane 3');
  });
});

describe("a watched run's samples", () => {
  const sample = (name: string, paired: boolean, excluded = false) => ({
    name,
    read1: `/runs/x/${name}_R1.fastq.gz`,
    read2: paired ? `/runs/x/${name}_R2.fastq.gz` : null,
    lane: null,
    project: null,
    bytes: 10,
    ...(excluded ? { excluded } : {}),
  });
  const proposal = (over: object) => ({
    kind: 'samples' as const,
    samples: [],
    lane: null,
    loose: [],
    ignored: [],
    warnings: [],
    total_bytes: 0,
    run: null,
    ...over,
  });
  it('names the samples, paired or not, leaving out excluded ones', () => {
    expect(runContents({ proposal: proposal({ samples: [sample('Liver-1', true), sample('Liver-2', true)] }) })).toBe(
      '2 samples, paired: Liver-1, Liver-2.',
    );
    expect(
      runContents({
        proposal: proposal({ samples: [sample('A', false), sample('B', true), sample('C', true, true)] }),
      }),
    ).toBe('2 samples (1 paired): A, B.');
  });
  it('names the lane, the loose files by file name, or says nothing is there yet', () => {
    expect(
      runContents({
        proposal: proposal({
          kind: 'lane',
          lane: { name: 'Pool7', file: '/r/p.fq', read2: null, annotation: '/r/s.csv' },
        }),
      }),
    ).toBe('One multiplexed lane: Pool7 (demultiplexed on the service).');
    expect(runContents({ proposal: proposal({ kind: 'data', loose: ['/runs/x/Undetermined_S0_R1.fastq.gz'] }) })).toBe(
      '1 file without a sample: Undetermined_S0_R1.fastq.gz.',
    );
    expect(runContents({ proposal: proposal({ kind: 'empty' }) })).toBe('No FASTQ file found in it yet.');
    expect(runContents({ proposal: null })).toBeNull();
  });
});

describe('a shared project says what is shared', () => {
  const project = { owner: 'tess', group_owner: null, can_edit: false, sample_ids: [1, 2, 3] };
  it("says nothing on one's own project", () => {
    expect(sharedProjectNote({ ...project, can_edit: true }, 'tess', 3)).toBeNull();
    expect(sharedProjectNote(project, 'tess', 3)).toBeNull();
  });
  it('says reads and results came along when every sample is readable', () => {
    expect(sharedProjectNote(project, 'omar', 3)).toBe(
      "Shared with you by tess (view only), with its samples' reads and results: you see what its owner sees.",
    );
  });
  it('says names only, and whom to ask, when they did not', () => {
    expect(sharedProjectNote(project, 'omar', 0)).toMatch(
      /^Shared with you by tess \(view only\), names only: Its samples show their names.*Ask tess to share it "with its reads and results"\.$/,
    );
    expect(sharedProjectNote({ ...project, owner: null, group_owner: 'core' }, 'omar', 1)).toMatch(
      /by the group core .*1 of 3 samples come with their reads and results.*Ask an admin of the group core/,
    );
  });
  it('counts the samples it names, not only the ids the caller may see (issue 24)', () => {
    const namesOnly = { ...project, sample_ids: [], samples: [{ name: 'a' }, { name: 'b' }] };
    expect(sharedProjectNote(namesOnly, 'omar', 0)).toMatch(/names only/);
    expect(
      sharedProjectNote({ ...namesOnly, sample_ids: [7], samples: [{ id: 7, name: 'a' }, { name: 'b' }] }, 'omar', 1),
    ).toMatch(/1 of 2 samples come with their reads and results/);
  });
});
