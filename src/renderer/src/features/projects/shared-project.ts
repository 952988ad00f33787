/**
 * What a colleague's view of a shared project says it shares (issue 20 item 3): whose project
 * it is, and whether its samples' reads and results came with it or only their names. The
 * service lists only the samples the caller may see, so a project whose samples it does not
 * list was shared without them (the derived-data rule). The project names all its samples
 * (`samples`), but gives ids (`sample_ids`) only of those the caller may see.
 */
interface ProjectLike {
  owner: string | null;
  group_owner: string | null;
  can_edit: boolean;
  sample_ids: readonly number[];
  samples?: readonly unknown[];
}

/** Null on one's own project (or one a group lets you edit); else the sentence the page shows. */
export function sharedProjectNote(p: ProjectLike, me: string | null, readable: number): string | null {
  if (p.can_edit || (p.owner !== null && p.owner === me)) return null;
  const whose = p.group_owner ? `the group ${p.group_owner}` : (p.owner ?? 'a colleague');
  const total = p.samples?.length ?? p.sample_ids.length;
  if (total === 0) return `Shared with you by ${whose} (view only). It has no samples yet.`;
  if (readable >= total)
    return `Shared with you by ${whose} (view only), with its samples' reads and results: you see what its owner sees.`;
  const owner = p.group_owner ? `an admin of ${whose}` : (p.owner ?? 'its owner');
  const some =
    readable > 0 ? `${readable} of ${total} samples come with their reads and results; the others` : 'Its samples';
  return `Shared with you by ${whose} (view only), names only: ${some} show their names but not their reads or results. Ask ${owner} to share it "with its reads and results".`;
}
