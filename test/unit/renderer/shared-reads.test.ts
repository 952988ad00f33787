import { describe, expect, it } from 'vitest';
import { unsharedReadsNote } from '../../../src/renderer/src/features/samples/shared-reads';

describe("a shared sample's page says whether its reads are shared", () => {
  it('says nothing when the reads are listed (readable)', () => {
    expect(unsharedReadsNote({ read1: 4, read2: 5, data: [{ id: 4 }, { id: 5 }], owner: 'tess' })).toBeNull();
  });
  it('names the owner to ask when the reads are not shared', () => {
    expect(unsharedReadsNote({ read1: 4, read2: null, data: [], owner: 'tess' })).toBe(
      'Its read files are not shared with you: you see the sample\'s name and metadata only. Ask tess to share it "with its reads and results".',
    );
  });
  it('names the owning group when a group owns it, and a half-shared pair', () => {
    expect(unsharedReadsNote({ read1: 4, read2: 5, data: [{ id: 4 }], group_owner: 'core' })).toMatch(
      /^One of its read files is not shared with you.*an admin of the group core/,
    );
  });
});
