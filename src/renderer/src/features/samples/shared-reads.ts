/**
 * What a colleague's view says about a shared sample's reads (issue 20 item 3): the service
 * lists only the records the caller may read, so reads it names but does not list were not
 * shared with them (the derived-data rule), and the screen says so and who can change it.
 */
interface SampleLike {
  read1: number;
  read2: number | null;
  data?: ReadonlyArray<{ id: number }>;
  owner?: string | null;
  group_owner?: string | null;
  can_edit?: boolean;
}

/** Null when every read is readable; else the sentence the sample's page shows. */
export function unsharedReadsNote(s: SampleLike): string | null {
  const listed = new Set((s.data ?? []).map((d) => d.id));
  const reads = [s.read1, ...(s.read2 === null ? [] : [s.read2])];
  const hidden = reads.filter((r) => !listed.has(r)).length;
  if (hidden === 0) return null;
  const owner = s.group_owner ? `an admin of the group ${s.group_owner}` : (s.owner ?? 'its owner');
  const what = hidden === reads.length ? 'Its read files are' : 'One of its read files is';
  return `${what} not shared with you: you see the sample's name and metadata only. Ask ${owner} to share it "with its reads and results".`;
}
