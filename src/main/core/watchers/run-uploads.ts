/**
 * A ready run's upload: proposed from its folder and queued with the watcher's sample metadata
 * (refused before any byte is sent when Organism or Category is missing, since the service
 * would refuse the samples afterwards), then followed from its jobs and groups.
 */
import { missingSampleMetadata } from '../../../shared/desktop-api/sample-metadata';
import { confirmProposal } from '../ingest/confirm';
import { propose } from '../ingest/propose';
import type { RunRow, RunStore } from '../runs/run-store';
import type { JobStore } from '../uploads/job-store';
import type { UploadQueue } from '../uploads/upload-queue';

/**
 * Queues a run's files as samples (or a lane, or data); answers the run as `uploading` or
 * `failed`. `asked` is Organism / Category chosen once for this run's whole sheet (its page asks
 * when the sheet has no columns for them); it and the watched folder's defaults fill only what
 * the sheet leaves empty.
 */
export async function startRunUpload(
  runs: RunStore,
  queue: UploadQueue,
  run: RunRow,
  asked: Record<string, string> = {},
): Promise<RunRow> {
  const proposal = await propose([run.path]);
  if (proposal.kind === 'empty')
    return runs.setState(run.id, 'failed', 'No FASTQ files to upload', {
      error: 'No FASTQ files to upload',
      proposal: JSON.stringify(proposal),
    });
  const given = Object.fromEntries(Object.entries(asked).filter(([, v]) => v.trim()));
  const metadata = { ...(runs.watcher(run.watcher_id)?.sample_metadata ?? {}), ...given };
  // The sheet's own Organism / Category columns count; the watcher's metadata fills the rest.
  const missing =
    proposal.kind === 'samples'
      ? [...new Set(proposal.samples.flatMap((s) => missingSampleMetadata({ ...metadata, ...s.metadata })))]
      : [];
  if (missing.length) {
    const why = `Choose ${missing.join(' and ')} for this run's samples (once for the whole sheet, on the run's page), or add the columns to its sample sheet: the service requires them`;
    return runs.setState(run.id, 'failed', why, { error: why, proposal: JSON.stringify(proposal) });
  }
  const result = await confirmProposal(queue, {
    kind: proposal.kind,
    samples: proposal.samples.map((s) => ({ ...s, metadata: { ...metadata, ...s.metadata } })),
    lane: proposal.lane,
    loose: proposal.loose,
  });
  // A run that failed before (Organism / Category missing, then chosen on its card) no longer is.
  return runs.setState(run.id, 'uploading', `${result.jobs.length} files queued`, {
    error: null,
    proposal: JSON.stringify(proposal),
    group_ids: JSON.stringify(result.groups.map((g) => g.id)),
    job_ids: JSON.stringify(result.jobs.map((j) => j.id)),
  });
}

/** Moves an uploading run on from its jobs: verified when all are in, registered when its samples exist. */
export function followRunUpload(runs: RunStore, store: JobStore, run: RunRow): RunRow | null {
  const jobs = (JSON.parse(run.job_ids) as number[]).map((id) => store.job(id));
  const groups = (JSON.parse(run.group_ids) as number[]).map((id) => store.group(id));
  let next: RunRow | null = null;
  const failed = jobs.find((j) => !j || j.state === 'failed' || j.state === 'cancelled');
  const groupFailed = groups.find((g) => !g || g.state === 'failed' || g.state === 'cancelled');
  if (failed || groupFailed) {
    const why = failed
      ? `${failed?.filename ?? 'a file'}: ${failed?.error ?? failed?.state ?? 'gone'}`
      : `${groupFailed?.name ?? 'a sample'}: ${groupFailed?.error ?? 'not created'}`;
    next = runs.setState(run.id, 'failed', why, { error: why });
  } else if (jobs.every((j) => j!.state === 'completed')) {
    if (run.state === 'uploading')
      next = runs.setState(run.id, 'verified', 'every file arrived with a matching sha256');
    if (groups.every((g) => g!.state === 'created'))
      next = runs.setState(run.id, 'registered', `${groups.length} samples or lanes created`);
  }
  return next;
}
