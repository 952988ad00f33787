/**
 * Creates a group's sample (`POST /api/samples/`) or lane (`POST /api/upload/multiplexed`)
 * exactly once when all its files are uploaded. The group is marked `creating` before the
 * request; a group found `creating` after a crash is first looked up on the service, so a
 * request that succeeded just before the crash is never repeated.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { NewSampleBody, Sample } from '../../../shared/service-api';
import type { ServiceClient } from '../service-client/service-client';
import { multipart } from '../../../shared/service-client/multipart';
import { ServiceError, serviceReason } from '../../../shared/service-client/service-error';
import type { GroupRow, JobRow, JobStore } from './job-store';
import { multipartBody } from './multipart';
import {
  getDataById,
  getLanes,
  getSamples,
  getSamplesById,
  postSamples,
  postUploadMultiplexed,
} from '../../../shared/service-api/endpoints';

export interface SampleParams {
  metadata?: Record<string, unknown>;
  project?: number;
}
export interface LaneParams {
  annotation: string;
  ignore_warnings?: boolean;
  /** The lane upload's demultiplexing fields, sent as given. */
  layout?: string;
  mismatches?: string;
  barcode_read?: 2;
}

/** Walks a list endpoint page by page for the first item that matches. */
async function findExisting<T extends { id: number }>(
  page: (n: number) => Promise<{ items: T[] }>,
  match: (item: T) => boolean,
): Promise<number | null> {
  for (let n = 1; n <= 1000; n++) {
    const { items } = await page(n);
    const found = items.find(match);
    if (found) return found.id;
    if (items.length < 100) return null;
  }
  return null;
}

function dataIdOf(jobs: JobRow[], role: JobRow['role']): number | null {
  return jobs.find((j) => j.role === role)?.data_id ?? null;
}

/** How a file's part in its group is named to the user. */
const PART: Record<JobRow['role'], string> = {
  data: 'file',
  read1: 'read 1',
  read2: 'read 2',
  multiplexed: 'read 1',
  'multiplexed-read2': 'read 2',
  'multiplexed-index1': 'index 1',
  'multiplexed-index2': 'index 2',
  annotation: 'annotation sheet',
};

/**
 * Two files of one group with the same bytes (the service keeps one record of them, so both
 * jobs end with the same data id): a read 2 that is a copy of read 1, from a copy made by hand
 * or a sample sheet pointing twice at one file. The service refuses such a sample with "read2:
 * must differ from read1", which names neither file nor the cause; this says both.
 */
export function identicalFiles(jobs: JobRow[]): string | null {
  const byData = new Map<number, JobRow>();
  for (const j of jobs) {
    if (j.data_id === null) continue;
    const first = byData.get(j.data_id);
    if (!first) {
      byData.set(j.data_id, j);
      continue;
    }
    const digest = j.checksum ?? first.checksum;
    return (
      `${PART[first.role]} (${first.filename}) and ${PART[j.role]} (${j.filename}) have the same contents` +
      `${digest ? ` (sha256 ${digest.slice(0, 12)}…)` : ''}: one is a copy of the other. ` +
      'Put the right file in place and add the files again.'
    );
  }
  return null;
}

/** Looks the group's sample or lane up on the service (after a crash while creating). */
export async function lookUpCreated(client: ServiceClient, group: GroupRow, jobs: JobRow[]): Promise<number | null> {
  if (group.kind === 'sample') {
    const read1 = dataIdOf(jobs, 'read1');
    return findExisting(
      (page) => client.call(getSamples, { query: { page, per_page: 100 } }),
      (s) => s.name === group.name && s.read1 === read1,
    );
  }
  const file = dataIdOf(jobs, 'multiplexed');
  return findExisting(
    (page) => client.call(getLanes, { query: { page, per_page: 100 } }),
    (l) => l.name === group.name && (l.read1 === undefined || l.read1 === file),
  );
}

/**
 * When the uploaded reads turned out to be on the service already (deduplicated) and belong to
 * a sample there, that sample is linked rather than a second one created; the note says so and
 * names every chosen metadata value the existing sample keeps differently.
 */
async function linkedSample(
  client: ServiceClient,
  group: GroupRow,
  jobs: JobRow[],
): Promise<{ id: number; note: string } | null> {
  const read1 = jobs.find((j) => j.role === 'read1');
  if (!read1?.deduplicated || read1.data_id === null) return null;
  const data = await client.send(getDataById, { params: { id: read1.data_id } });
  const sampleId = data.ok ? (data.body.sample_id ?? null) : null;
  if (sampleId === null) return null;
  const res = await client.send(getSamplesById, { params: { id: sampleId } });
  const sample: Partial<Pick<Sample, 'name' | 'metadata'>> = res.ok ? res.body : {};
  const chosen = (JSON.parse(group.params) as SampleParams).metadata ?? {};
  const kept = Object.entries(chosen)
    .filter(([k, v]) => {
      const there = sample.metadata?.[k.toLowerCase()] ?? sample.metadata?.[k];
      return String(there ?? '').toLowerCase() !== String(v ?? '').toLowerCase();
    })
    .map(
      ([k, v]) =>
        `${k} stays "${String(sample.metadata?.[k.toLowerCase()] ?? sample.metadata?.[k] ?? '')}" (you chose "${String(v)}")`,
    );
  const name = sample.name ?? `#${sampleId}`;
  return {
    id: sampleId,
    note: `Linked to the existing sample ${name}: its reads were already on the service, so no new sample was created${kept.length ? `; ${kept.join(', ')}` : ''}`,
  };
}

/** Creates the group's resource on the service; answers its id. */
export async function createOnService(client: ServiceClient, group: GroupRow, jobs: JobRow[]): Promise<number> {
  if (group.kind === 'sample') {
    const params = JSON.parse(group.params) as SampleParams;
    const body: NewSampleBody = {
      name: group.name,
      // Present once the group's jobs completed; otherwise the service answers VALIDATION_ERROR.
      read1: dataIdOf(jobs, 'read1')!,
      metadata: params.metadata ?? {},
    };
    const read2 = dataIdOf(jobs, 'read2');
    if (read2 !== null) body.read2 = read2;
    if (params.project !== undefined) body.project = params.project;
    const created = await client.call(postSamples, { body });
    return created.id;
  }
  const params = JSON.parse(group.params) as LaneParams;
  const fields: Record<string, string> = { name: group.name, file_data_id: String(dataIdOf(jobs, 'multiplexed')) };
  const read2 = dataIdOf(jobs, 'multiplexed-read2');
  if (read2 !== null) fields.file2_data_id = String(read2);
  const index1 = dataIdOf(jobs, 'multiplexed-index1');
  if (index1 !== null) fields.index1_data_id = String(index1);
  const index2 = dataIdOf(jobs, 'multiplexed-index2');
  if (index2 !== null) fields.index2_data_id = String(index2);
  if (params.layout) fields.layout = params.layout;
  if (params.mismatches) fields.mismatches = params.mismatches;
  if (params.barcode_read === 2) fields.barcode_read = '2';
  if (params.ignore_warnings) fields.ignore_warnings = 'true';
  const sheet = await readFile(params.annotation);
  const form = multipartBody(
    multipart(fields, [
      {
        field: 'annotation',
        filename: basename(params.annotation),
        content: sheet,
        type: /\.csv$/i.test(params.annotation)
          ? 'text/csv'
          : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    ]),
  );
  const lane = await client.call(postUploadMultiplexed, {
    headers: { 'content-type': form.contentType, 'content-length': String(form.length) },
    raw: () => form.stream(),
  });
  return lane.id;
}

/**
 * Why the service refused the group: its message, and for a lane's warnings (409
 * ANNOTATION_WARNINGS) the warnings themselves, so that the Uploads row, the run's page and the
 * Lane screen say which names or rows, not only how many.
 */
function refusalReason(err: ServiceError): string {
  const reason = serviceReason(err.data);
  const warnings = (err.data.details as { warnings?: Array<{ row?: number; message?: string }> } | undefined)?.warnings;
  if (err.data.code !== 'ANNOTATION_WARNINGS' || !Array.isArray(warnings)) return reason;
  // The placement's refusal is the message already: it is not said twice.
  const rest = warnings.filter((w) => typeof w.message === 'string' && !reason.includes(w.message));
  if (!rest.length) return reason;
  const listed = rest.slice(0, 10).map((w) => `row ${w.row ?? '?'}: ${w.message ?? ''}`);
  const more = rest.length > 10 ? `; and ${rest.length - 10} more` : '';
  return `${reason} (${listed.join('; ')}${more})`.slice(0, 4000);
}

/** Creates the group once if all its jobs are complete; answers the updated group or null. */
export async function finishGroup(store: JobStore, client: ServiceClient, groupId: number): Promise<GroupRow | null> {
  let group = store.group(groupId);
  if (!group || group.state === 'created' || group.state === 'cancelled') return null;
  const jobs = store.groupJobs(groupId);
  if (!jobs.every((j) => j.state === 'completed')) return null;
  if (group.state === 'creating') {
    const existing = await lookUpCreated(client, group, jobs);
    if (existing !== null) return store.updateGroup(groupId, { state: 'created', created_id: existing, error: null });
  }
  const same = identicalFiles(jobs);
  if (same) return store.updateGroup(groupId, { state: 'failed', error: same });
  group = store.updateGroup(groupId, { state: 'creating', error: null });
  try {
    if (group.kind === 'sample') {
      const linked = await linkedSample(client, group, jobs);
      if (linked) {
        const params = { ...(JSON.parse(group.params) as Record<string, unknown>), outcome_note: linked.note };
        return store.updateGroup(groupId, {
          state: 'created',
          created_id: linked.id,
          error: null,
          params: JSON.stringify(params),
        });
      }
    }
    const id = await createOnService(client, group, jobs);
    return store.updateGroup(groupId, { state: 'created', created_id: id, error: null });
  } catch (err) {
    if (err instanceof ServiceError && !err.retryable && err.status !== null && err.status !== 401) {
      return store.updateGroup(groupId, { state: 'failed', error: refusalReason(err) });
    }
    // Stays `creating`: the next attempt looks it up first.
    throw err;
  }
}
