/**
 * Before anything is uploaded, each proposed sample is checked against the service: reads this
 * app uploaded before (the local hash index: same files, size and modification time) that
 * belong to a sample there are marked "already on the service" and are neither uploaded nor
 * created again; a sample of the same name is pointed out so the user can rename or exclude.
 * Files never uploaded from this machine cannot be recognised without reading them whole: the
 * upload itself then deduplicates them (409 DUPLICATE_FILE) and the sample is linked, as the
 * group's outcome says.
 */
import type { Proposal, ProposedSample } from '../../../shared/desktop-api/contract';
import type { ServiceClient } from '../service-client/service-client';
import { statSources } from '../uploads/source-file';
import type { UploadQueue } from '../uploads/upload-queue';
import { barcodeBatches } from './propose';
import { checkedPath, isDirectory } from '../files/scan-paths';
import { mapInFlight } from './map-in-flight';
import { getDataById, getSamples, getSamplesById } from '../../../shared/service-api/endpoints';

type Existing = NonNullable<ProposedSample['existing']>;

/** Samples looked up on the service at once (the service takes them in turn; a link's latency overlaps). */
const LOOK_UPS_IN_FLIGHT = 8;

async function read1Sources(s: ProposedSample): Promise<string[]> {
  if (s.read1_parts && s.read1_parts.length > 1) return Promise.all(s.read1_parts.map(checkedPath));
  const real = await checkedPath(s.read1);
  if (!(await isDirectory(real))) return [real];
  const batches = await barcodeBatches(real);
  const gz = batches.filter((b) => b.toLowerCase().endsWith('.gz'));
  return gz.length ? gz : batches;
}

async function sampleOfKnownReads(
  queue: UploadQueue,
  client: ServiceClient,
  profileId: string,
  s: ProposedSample,
): Promise<Existing | null> {
  const sources = await read1Sources(s).catch(() => null);
  if (!sources?.length) return null;
  const st = await statSources(sources).catch(() => null);
  if (!st) return null;
  const checksum = queue.store.knownChecksum(JSON.stringify(sources), st.size, st.mtimeMs);
  const dataId = checksum ? queue.store.dataIdFor(profileId, checksum) : null;
  if (dataId === null) return null;
  const data = await client.send(getDataById, { params: { id: dataId } });
  if (!data.ok) return null;
  const sampleId = data.body.sample_id ?? null;
  if (sampleId === null)
    return {
      sample_id: null,
      sample_name: null,
      reads_on_service: true,
      message: 'The reads are already on the service (not in a sample): they are not sent again; the sample is created',
    };
  const sample = await client.send(getSamplesById, { params: { id: sampleId } });
  const name = sample.ok ? sample.body.name : '';
  return {
    sample_id: sampleId,
    sample_name: name || null,
    reads_on_service: true,
    message: `Already on the service as sample ${name || `#${sampleId}`}: not uploaded or created again (its metadata stays as it is there)`,
  };
}

async function sampleOfSameName(client: ServiceClient, s: ProposedSample): Promise<Existing | null> {
  const res = await client.send(getSamples, { query: { name: s.name, per_page: 100 } });
  if (!res.ok) return null;
  const items = res.body.items;
  const same = items.find((x) => x.name === s.name);
  if (!same) return null;
  return {
    sample_id: same.id,
    sample_name: same.name,
    reads_on_service: false,
    message: `A sample named ${same.name} already exists on the service (#${same.id}) with other reads: rename this one or leave it out`,
  };
}

/** The proposal with `existing` set on samples the service already has, and a warning per kind. */
export async function markExisting(proposal: Proposal, queue: UploadQueue): Promise<Proposal> {
  const conn = queue.connection();
  if (!conn || !proposal.samples.length) return proposal;
  // Several samples are looked up at once: over a long link each look-up is a round trip or two.
  const samples = await mapInFlight(proposal.samples, LOOK_UPS_IN_FLIGHT, async (s) => {
    let existing: Existing | null;
    try {
      existing =
        (await sampleOfKnownReads(queue, conn.client, conn.profileId, s)) ?? (await sampleOfSameName(conn.client, s));
    } catch {
      // Offline or signed out: the proposal stands; the upload deduplicates anyway.
      existing = null;
    }
    return existing ? { ...s, existing } : s;
  });
  const onService = samples.filter((s) => s.existing?.reads_on_service && s.existing.sample_id !== null);
  const sameName = samples.filter((s) => s.existing && !s.existing.reads_on_service);
  const warnings = [...proposal.warnings];
  if (onService.length)
    warnings.push({
      code: 'existing-sample',
      path: null,
      message: `${onService.length} of ${samples.length} samples are already on the service (${onService
        .slice(0, 3)
        .map((s) => s.existing!.sample_name ?? s.name)
        .join(', ')}${onService.length > 3 ? ' ...' : ''}); they will not be uploaded or created again`,
    });
  if (sameName.length)
    warnings.push({
      code: 'existing-file',
      path: null,
      message: `${sameName.length} proposed ${sameName.length === 1 ? 'name is' : 'names are'} already used by samples on the service (${sameName
        .slice(0, 3)
        .map((s) => s.name)
        .join(', ')}); rename or leave them out`,
    });
  return { ...proposal, samples, warnings };
}
