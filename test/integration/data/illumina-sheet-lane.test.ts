/**
 * Issue 19 item 5 through the REST lane upload: an Illumina v1 SampleSheet.csv (its [Data]
 * section past row 10, test/fixtures/instruments/illumina-runs.ts) is the lane sheet of a
 * dual-index lane. index2 is the i5 half of each barcode, so a read whose i7 is one sample's
 * and whose i5 is another's (index hopping) goes to Undetermined, never to a sample; the
 * sheet's Sample_Project and the lab's Organism and Category columns reach the samples.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHEET_SAMPLES, sheetV1 } from '../../fixtures/instruments/illumina-runs';
import { startTestService, type TestService } from '../../helpers/test-service';
import { setupAdmin, type Session } from '../identity/helpers';

interface Lane {
  id: number;
  status: string;
  error: string | null;
  samples: Array<{ name: string; sample_id: number | null; reads: number | null }>;
  report: { undetermined_fraction: number } | null;
}

/** Reads with Illumina headers `1:N:0:<i7>+<i5>`, bases differing per read. */
function lane(pairs: Array<[string, number]>): string {
  let n = 0;
  const out: string[] = [];
  for (const [index, count] of pairs)
    for (let i = 0; i < count; i++, n++) {
      const bases = Array.from({ length: 50 }, (_, k) => 'ACGT'[(n * 7 + k * 3 + ((n * k) % 5)) % 4]).join('');
      out.push(`@NB551234:42:HYYYYBGXY:1:11101:${1000 + n}:2000 1:N:0:${index}`, bases, '+', 'F'.repeat(50));
    }
  return `${out.join('\n')}\n`;
}

describe('an Illumina sample sheet as the lane sheet', () => {
  let service: TestService;
  let alice: Session;
  beforeAll(async () => {
    service = await startTestService();
    alice = await setupAdmin(service, 'alice');
  });
  afterAll(() => service.stop());
  const auth = () => ({ authorization: `Bearer ${alice.token}` });

  it('splits on i7+i5: index-hopped reads are undetermined; project, organism and category reach the samples', async () => {
    const [s1, s2] = SHEET_SAMPLES;
    const fastq = lane([
      [`${s1!.index}+${s1!.index2}`, 12],
      [`${s2!.index}+${s2!.index2}`, 9],
      // i7 of S1 with i5 of S2: split on i7 alone, these would have gone to S1.
      [`${s1!.index}+${s2!.index2}`, 5],
    ]);
    const form = new FormData();
    form.append('name', 'NextSeq lane 1');
    form.append('annotation', new Blob([sheetV1(1)]), 'SampleSheet.csv');
    form.append('file', new Blob([fastq]), 'lane_R1.fastq');
    const res = await service.api('/api/upload/multiplexed', { method: 'POST', headers: auth(), body: form });
    const body = (await res.json()) as Lane;
    expect(res.status, JSON.stringify(body)).toBe(202);
    let current = body;
    for (let i = 0; i < 600 && current.status === 'demultiplexing'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      current = (await (await service.api(`/api/lanes/${body.id}`, { headers: auth() })).json()) as Lane;
    }
    expect(current.status, current.error ?? '').toBe('complete');
    expect(current.samples.map((s) => [s.name, s.reads])).toEqual([
      ['S1', 12],
      ['S2', 9],
    ]);
    expect(current.report!.undetermined_fraction).toBeCloseTo(5 / 26, 6);
    const sample = (await (
      await service.api(`/api/samples/${current.samples[1]!.sample_id}`, { headers: auth() })
    ).json()) as { metadata: Record<string, string> };
    expect(sample.metadata).toMatchObject({ organism: 'Mus musculus', category: 'RNA' });
    expect(Object.entries(sample.metadata)).toEqual(
      expect.arrayContaining([expect.arrayContaining([expect.stringMatching(/sample_?project/i), 'Hepato'])]),
    );
  });
});
