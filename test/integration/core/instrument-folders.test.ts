/**
 * Instrument run folders as the instruments write them (fixtures follow the vendors' published
 * layouts field for field; see test/fixtures/instruments), proposed, uploaded through the real
 * queue into the real service, and checked on the service's side.
 */
import { readdirSync, readFileSync, rmSync, truncateSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { confirmProposal } from '../../../src/main/core/ingest/confirm';
import { markExisting } from '../../../src/main/core/ingest/mark-existing';
import { propose } from '../../../src/main/core/ingest/propose';
import { assessRun } from '../../../src/main/core/runs/run-status';
import { writeBclConvertRun, TRUSEQ_READ1, TRUSEQ_READ2 } from '../../fixtures/instruments/bcl-convert-run';
import { ELEMENT_SAMPLES, writeElementRun } from '../../fixtures/instruments/element-run';
import { writeMinknowRun } from '../../fixtures/instruments/minknow-run';
import { coreSuite } from './core-suite';
import { getSamples } from '../../../src/shared/service-api/endpoints';
import type { Sample } from '../../../src/shared/service-api/samples';

const core = coreSuite({ queue: true, prefix: 'laneway-instruments-' });

const META = { organism: 'Homo sapiens', category: 'Control' };

/** Sets every given file's modification time a minute back (files settled). */
function settle(paths: Iterable<string>): void {
  const past = new Date(Date.now() - 60_000);
  for (const p of paths) utimesSync(p, past, past);
}

function settleAll(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) settleAll(p);
    else settle([p]);
  }
}

async function download(dataId: number): Promise<Buffer> {
  const res = await fetch(`${core.service.url}/api/data/${dataId}/download`, {
    headers: { authorization: `Bearer ${await core.h.session.token()}` },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function samplesOnService(): Promise<Sample[]> {
  return (await core.h.client.call(getSamples, { query: { per_page: 100 } })).items;
}

const idOf = (v: { id: number } | number | null) => (v === null ? null : typeof v === 'number' ? v : v.id);

describe('Nanopore (MinKNOW)', () => {
  it('reads output_hash_*.csv by column name: ready when every hash agrees, failed naming the one corrupted file', async () => {
    const run = writeMinknowRun(join(core.root, 'np-hash'));
    settleAll(run.dir);
    const ok = await assessRun(run.dir, 'nanopore', 300_000, Date.now());
    expect(ok.state).toBe('ready');
    const victim = [...run.fastqs.keys()].find((k) => k.includes('barcode02'))!;
    const path = join(run.dir, ...victim.split('/'));
    truncateSync(path, run.fastqs.get(victim)!.length - 1);
    settle([path]);
    const bad = await assessRun(run.dir, 'nanopore', 300_000, Date.now());
    expect(bad.state).toBe('failed');
    expect(bad.note).toContain(victim);
    expect(bad.note).toMatch(/output_hash_PAQ12345_.*\.csv/);
  });

  it("names samples by the sample sheet alias, joins each barcode's batches into one upload, leaves unclassified and fastq_fail out", async () => {
    const run = writeMinknowRun(join(core.root, 'np-alias'));
    const proposal = await propose([run.dir]);
    expect(proposal.samples.map((s) => s.name).sort()).toEqual(['Patient_A', 'Patient_B']);
    expect(proposal.ignored.some((p) => p.includes('unclassified'))).toBe(true);
    expect(proposal.ignored.some((p) => p.includes('fastq_fail'))).toBe(true);
    const result = await confirmProposal(core.h.queue, {
      kind: 'samples',
      samples: proposal.samples.map((s) => ({ ...s, metadata: META })),
      lane: null,
      loose: [],
    });
    expect(result.groups).toHaveLength(2);
    await core.h.queue.waitForIdle();
    const onService = (await samplesOnService()).filter((s) => s.name.startsWith('Patient_'));
    expect(onService.map((s) => s.name).sort()).toEqual(['Patient_A', 'Patient_B']);
    const a = onService.find((s) => s.name === 'Patient_A')!;
    const bytes = await download(idOf(a.read1)!);
    const batches = [...run.fastqs.keys()].filter((k) => k.startsWith('fastq_pass/barcode01/')).sort();
    // gzip members concatenate: the joined upload is the batches' bytes, one after the other.
    expect(bytes.equals(Buffer.concat(batches.map((b) => run.fastqs.get(b)!)))).toBe(true);
    expect(
      gunzipSync(bytes)
        .toString()
        .split('\n')
        .filter((l) => l.startsWith('@')).length,
    ).toBe(3 * 40);
  });
});

describe('Illumina BCL Convert', () => {
  it('never proposes Undetermined (shown as the undetermined fraction), makes one sample per sample across lanes with lane files joined in lane order, reads the reports and [Settings] adapters', async () => {
    const run = writeBclConvertRun(join(core.root, 'bcl'), '261124_A01234_0017_AHXXXXDSX7');
    const proposal = await propose([run.dir]);
    expect(proposal.run?.kind).toBe('illumina');
    expect(proposal.samples.map((s) => s.name)).toEqual(['Ctrl1', 'Treat1']);
    expect(proposal.samples.some((s) => /undetermined/i.test(s.name))).toBe(false);
    const report = proposal.report!;
    expect(report.undetermined?.files).toHaveLength(4);
    expect(report.undetermined?.reads).toBe(run.undeterminedReads);
    expect(report.undetermined?.fraction).toBeCloseTo(run.undeterminedReads / run.totalReads, 6);
    expect(proposal.warnings.find((w) => w.code === 'undetermined')?.message).toMatch(/% of the run's reads/);
    expect(report.demux_stats.filter((r) => r.sample === 'Ctrl1').map((r) => r.reads)).toEqual([30, 25]);
    expect(report.top_unknown[0]).toEqual({ lane: 1, index: 'GGGGGGGG+AGATCTCG', reads: 7 });
    expect(report.adapters).toEqual({ read1: TRUSEQ_READ1, read2: TRUSEQ_READ2 });
    const ctrl = proposal.samples[0]!;
    expect(ctrl.read1_parts?.map((p) => p.split('/').pop())).toEqual([
      'Ctrl1_S1_L001_R1_001.fastq.gz',
      'Ctrl1_S1_L002_R1_001.fastq.gz',
    ]);
    expect(ctrl.metadata).toMatchObject({ adapter_read1: TRUSEQ_READ1, adapter_read2: TRUSEQ_READ2, lanes: '1+2' });

    await confirmProposal(core.h.queue, {
      kind: 'samples',
      samples: proposal.samples.map((s) => ({ ...s, metadata: { ...s.metadata, ...META } })),
      lane: null,
      loose: [],
    });
    await core.h.queue.waitForIdle();
    const onService = await samplesOnService();
    expect(onService.filter((s) => /undetermined/i.test(s.name))).toEqual([]);
    const c = onService.find((s) => s.name === 'Ctrl1')!;
    expect(c.metadata).toMatchObject({ adapter_read1: TRUSEQ_READ1, adapter_read2: TRUSEQ_READ2 });
    const r1 = gunzipSync(await download(idOf(c.read1)!)).toString();
    const r2 = gunzipSync(await download(idOf(c.read2)!)).toString();
    expect(r1).toBe(run.texts.get('Ctrl1')!.r1.join(''));
    expect(r2).toBe(run.texts.get('Ctrl1')!.r2.join(''));
  });
});

describe('Element AVITI', () => {
  it('takes sample names, indexes and lanes from RunManifest.csv, and from RunManifest.json when the CSV is absent', async () => {
    const dir = writeElementRun(join(core.root, 'el'), '20261124_AV234501_A2345678');
    const proposal = await propose([dir]);
    expect(proposal.run?.kind).toBe('element');
    expect(proposal.report?.manifest).toEqual(
      ELEMENT_SAMPLES.map((s) => ({
        name: s.name,
        index1: s.index1,
        index2: s.index2,
        lanes: s.lanes,
        project: s.project,
      })),
    );
    const liver = proposal.samples.find((s) => s.name === 'Liver_01')!;
    expect(liver.project).toBe('Hepato');
    expect(liver.metadata).toMatchObject({ index: 'ATCACGAT+CGATGTTC', lanes: '1+2' });
    expect(liver.read2).toMatch(/Liver_01_R2\.fastq\.gz$/);

    rmSync(join(dir, 'RunManifest.csv'));
    const fromJson = await propose([dir]);
    expect(fromJson.report?.manifest?.map((m) => [m.name, m.lanes])).toEqual([
      ['Liver_01', [1, 2]],
      ['Liver_02', [1]],
    ]);
    expect(fromJson.report?.sources).toEqual(['RunManifest.json', 'RunStats.json']);
  });
});

describe('ingest proposals never create a wrong sample', () => {
  it('marks a run already uploaded before anything is sent, does not upload or re-create it, and leaves excluded rows out', async () => {
    const run = writeBclConvertRun(join(core.root, 'again'), '261124_A01234_0018_AHYYYYDSX7');
    const first = await propose([run.dir]);
    await confirmProposal(core.h.queue, {
      kind: 'samples',
      samples: first.samples.map((s) => ({ ...s, name: `${s.name}_again`, metadata: { ...s.metadata, ...META } })),
      lane: null,
      loose: [],
    });
    await core.h.queue.waitForIdle();
    const before = (await samplesOnService()).length;

    const second = await markExisting(await propose([run.dir]), core.h.queue);
    for (const s of second.samples) {
      expect(s.existing?.reads_on_service).toBe(true);
      expect(s.existing?.sample_name).toBe(`${s.name}_again`);
    }
    expect(second.warnings.find((w) => w.code === 'existing-sample')?.message).toMatch(
      /2 of 2 samples are already on the service/,
    );
    const jobsBefore = core.h.queue.store.jobs().length;
    const res = await confirmProposal(core.h.queue, {
      kind: 'samples',
      samples: second.samples.map((s) => ({
        ...s,
        metadata: { ...s.metadata, organism: 'Mus musculus', category: 'Treatment' },
      })),
      lane: null,
      loose: [],
    });
    expect(res.jobs).toEqual([]);
    expect(core.h.queue.store.jobs().length).toBe(jobsBefore);
    expect((await samplesOnService()).length).toBe(before);

    // A fresh run: one row excluded by the user is neither uploaded nor created.
    const other = writeBclConvertRun(join(core.root, 'excl'), '261124_A01234_0019_AHZZZZDSX7');
    const p = await markExisting(await propose([other.dir]), core.h.queue);
    const chosen = p.samples.map((s, i) => ({
      ...s,
      name: `${s.name}_excl`,
      excluded: i === 1,
      metadata: { ...s.metadata, ...META },
    }));
    // Same file bytes as the first run (deterministic fixture), other paths: not known locally.
    const r = await confirmProposal(core.h.queue, { kind: 'samples', samples: chosen, lane: null, loose: [] });
    expect(r.groups.map((g) => g.name)).toEqual(['Ctrl1_excl']);
  });

  it('says truthfully that a re-uploaded sample was linked to the existing one, naming the metadata it kept', async () => {
    const run = writeBclConvertRun(join(core.root, 'link'), '261124_A01234_0020_AHLINKDSX7');
    const p = await propose([run.dir]);
    const ctrl = p.samples.find((s) => s.name === 'Ctrl1')!;
    await confirmProposal(core.h.queue, {
      kind: 'samples',
      samples: [{ ...ctrl, name: 'Linked_first', metadata: { ...ctrl.metadata, ...META } }],
      lane: null,
      loose: [],
    });
    await core.h.queue.waitForIdle();
    // Another copy of the same files (another folder): the local index does not know them, the
    // service deduplicates them, and the sample is linked rather than created a second time.
    const copy = writeBclConvertRun(join(core.root, 'link-copy'), '261124_A01234_0020_AHLINKDSX7');
    const q = await propose([copy.dir]);
    const again = q.samples.find((s) => s.name === 'Ctrl1')!;
    const res = await confirmProposal(core.h.queue, {
      kind: 'samples',
      samples: [
        {
          ...again,
          name: 'Linked_second',
          metadata: { ...again.metadata, organism: 'Homo sapiens', category: 'Treatment' },
        },
      ],
      lane: null,
      loose: [],
    });
    await core.h.queue.waitForIdle();
    const group = core.h.queue.list().groups.find((g) => g.id === res.groups[0]!.id)!;
    expect(group.state).toBe('created');
    expect(group.note).toMatch(/^Linked to the existing sample Linked_first: its reads were already on the service/);
    expect(group.note).toMatch(/category stays "Control" \(you chose "Treatment"\)/);
    expect((await samplesOnService()).filter((s) => s.name === 'Linked_second')).toEqual([]);
  });
});

it('fixtures carry their sources', () => {
  for (const f of ['minknow-run.ts', 'bcl-convert-run.ts', 'element-run.ts', 'illumina-runs.ts'])
    expect(readFileSync(join(__dirname, '../../fixtures/instruments', f), 'utf8')).toMatch(
      /https?:\/\/|docs\.|support-docs/,
    );
});
