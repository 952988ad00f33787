/**
 * What a Flow server needs to know about a queued file at chunk time (FLOW-WIRE.md §4.1): a
 * read of a sample group is uploaded with its sample's fields, read 2 names read 1's data id,
 * and the last read's last chunk creates the sample. Laneway's wire asks none of this (the
 * sample is a request of its own after the reads), so it is looked up here, by file_id. A lane's
 * files (§4.2) need its sheet before read 1, and read 1's id on read 2.
 */
import type { FlowUploadIntent, UploadIntents } from '../service-client/flow/flow-uploads';
import type { LaneParams, SampleParams } from './group-finisher';
import type { JobRow, JobStore } from './job-store';

export function flowUploadIntents(store: JobStore): UploadIntents {
  return (fileId: string): FlowUploadIntent | null => {
    const job = store.db.prepare('SELECT * FROM jobs WHERE file_id = ?').get(fileId) as JobRow | undefined;
    if (!job || job.group_id === null) return { sample: null };
    const group = store.group(job.group_id);
    if (!group) return { sample: null };
    const jobs = store.groupJobs(group.id);
    if (group.kind === 'lane') {
      const params = JSON.parse(group.params) as LaneParams;
      const read1 = jobs.find((j) => j.role === 'multiplexed');
      return {
        sample: null,
        lane: {
          key: `group-${group.id}:${params.annotation}`,
          annotation: params.annotation,
          name: group.name,
          ignoreWarnings: params.ignore_warnings === true,
          role: job.role === 'multiplexed' ? 'read1' : job.role === 'multiplexed-read2' ? 'read2' : 'index',
          read1: read1?.state === 'completed' ? read1.data_id : null,
          read1Ended: read1Ended(read1),
        },
      };
    }
    if (group.kind !== 'sample') return { sample: null };
    const read1 = jobs.find((j) => j.role === 'read1');
    const paired = jobs.some((j) => j.role === 'read2');
    const params = JSON.parse(group.params) as SampleParams;
    return {
      sample: {
        name: group.name,
        metadata: params.metadata ?? {},
        project: params.project ?? null,
        isRead2: job.role === 'read2',
        lastRead: job.role === 'read2' || !paired,
        read1: read1?.state === 'completed' ? read1.data_id : null,
        read1Ended: read1Ended(read1),
      },
    };
  };
}

/** Why read 1 will not be uploaded (failed or cancelled), or null while it may still be. */
function read1Ended(read1: JobRow | undefined): string | null {
  return read1?.state === 'failed' || read1?.state === 'cancelled' ? (read1.error ?? `read 1 ${read1.state}`) : null;
}
