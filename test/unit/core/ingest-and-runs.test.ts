import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { enqueueLane, enqueueSamples } from '../../../src/main/core/ingest/confirm';
import { propose } from '../../../src/main/core/ingest/propose';
import { assessRun } from '../../../src/main/core/runs/run-status';
import { parseSampleSheet } from '../../../src/main/core/runs/sample-sheet';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-ingest-');
afterAll(() => dir.remove());

const fq = (name: string) => gzipSync(Buffer.from(`@${name}\nACGT\n+\nIIII\n`));
function put(path: string, content: string | Buffer = ''): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}
/** Makes every file look old, so that the settle rule does not hold a ready run back. */
function age(paths: string[]): void {
  const past = new Date(Date.now() - 3600_000);
  for (const p of paths) utimesSync(p, past, past);
}

describe('drop ingest proposals', () => {
  it('pairs a folder of FASTQs, takes names and projects from a v1 sample sheet, warns about what the service refuses', async () => {
    const d = join(dir.path, 'drop1');
    put(join(d, 'S-1_S1_L001_R1_001.fastq.gz'), fq('a'));
    put(join(d, 'S-1_S1_L001_R2_001.fastq.gz'), fq('b'));
    put(join(d, 'lonely_R2.fastq.gz'), fq('c'));
    put(join(d, 'reads.fastq.ora'), 'x');
    put(join(d, 'aln.bam'), 'x');
    put(join(d, 'notes.txt'), 'x');
    put(join(d, 'empty.fastq'), '');
    put(
      join(d, 'SampleSheet.csv'),
      '[Header]\nIEMFileVersion,4\n[Data]\nSample_ID,Sample_Name,Sample_Project\nS-1,Liver 1,Hepato\n',
    );
    const p = await propose([d]);
    expect(p.kind).toBe('samples');
    expect(p.samples).toEqual([
      expect.objectContaining({
        name: 'Liver 1',
        read1: join(d, 'S-1_S1_L001_R1_001.fastq.gz'),
        read2: join(d, 'S-1_S1_L001_R2_001.fastq.gz'),
        lane: 1,
        project: 'Hepato',
      }),
    ]);
    expect(p.loose).toEqual([join(d, 'lonely_R2.fastq.gz')]);
    expect(p.warnings.map((w) => w.code).sort()).toEqual([
      'bam',
      'empty',
      'fastq-ora',
      'missing-metadata',
      'not-fastq',
      'unpaired-read',
    ]);
    // Nothing is uploaded for samples the service would refuse: the warning names them.
    expect(p.warnings.find((w) => w.code === 'missing-metadata')!.message).toMatch(
      /^Choose Organism and Category for samples? .*: the service refuses samples without them$/,
    );
    const confirmQueue = null as unknown as Parameters<typeof enqueueSamples>[0];
    await expect(enqueueSamples(confirmQueue, [{ name: 'S', read1: p.samples[0]!.read1 }])).rejects.toThrow(
      'Choose Organism and Category for sample S: the service refuses samples without them',
    );
    await expect(
      enqueueSamples(confirmQueue, [{ name: 'S', read1: p.samples[0]!.read1, metadata: { Organism: 'Homo sapiens' } }]),
    ).rejects.toThrow('Choose Category for sample S');
    await expect(propose(['relative/path'])).rejects.toThrow(/absolute/);
    await expect(propose([join(dir.path, 'missing')])).rejects.toThrow(/No such/);
  });

  it('warns when read 2 looks like a copy of read 1, and not for true mates of the same size', async () => {
    // Mates as BCL Convert writes them: the same reads and lengths, " 1:N:0:" and " 2:N:0:" in
    // the headers, so plain files of one read length are the same size.
    const records = (read: 1 | 2) =>
      Array.from({ length: 200 }, (_, i) => {
        const seq = 'ACGT'.repeat(25).slice(i % 4, (i % 4) + 75);
        return `@A00123:8:HFLWCDRXX:1:1101:${1000 + i}:1000 ${read}:N:0:ACGTACGT+TTGCAGGA\n${read === 1 ? seq : [...seq].reverse().join('')}\n+\n${'F'.repeat(75)}\n`;
      }).join('');
    const d = join(dir.path, 'copies');
    put(join(d, 'Mates_S1_L001_R1_001.fastq'), records(1));
    put(join(d, 'Mates_S1_L001_R2_001.fastq'), records(2));
    put(join(d, 'Twin_S2_L001_R1_001.fastq'), records(1));
    const twin2 = put(join(d, 'Twin_S2_L001_R2_001.fastq'), records(1));
    const p = await propose([d]);
    expect(p.samples.map((x) => x.name).sort()).toEqual(['Mates', 'Twin']);
    const copies = p.warnings.filter((w) => w.code === 'read2-copy');
    expect(copies).toEqual([
      {
        code: 'read2-copy',
        path: realpathSync(twin2),
        message:
          'Twin_S2_L001_R2_001.fastq starts with the same bytes as Twin_S2_L001_R1_001.fastq and is as large: read 2 of Twin looks like a copy of read 1. The service refuses such a sample; put the right file in place, or untick it',
      },
    ]);
  });

  it('refuses one file given twice in a sample or a lane, before anything is queued', async () => {
    const d = join(dir.path, 'twice');
    const r1 = put(join(d, 'T_S1_L001_R1_001.fastq.gz'), fq('t1'));
    const lane2 = put(join(d, 'T_S1_L002_R1_001.fastq.gz'), fq('t2'));
    const link = join(d, 'T_S1_L001_R2_001.fastq.gz');
    symlinkSync(r1, link);
    const real = realpathSync(r1);
    const metadata = { organism: 'Homo sapiens', category: 'DNA' };
    // Refused before the queue is touched: there is none.
    const noQueue = null as unknown as Parameters<typeof enqueueSamples>[0];
    await expect(enqueueSamples(noQueue, [{ name: 'T', read1: r1, read2: r1, metadata }])).rejects.toThrow(
      `Sample "T": read 2 is the same file as read 1 (${real})`,
    );
    // A link to read 1 typed as read 2 is the same file.
    await expect(enqueueSamples(noQueue, [{ name: 'T', read1: r1, read2: link, metadata }])).rejects.toThrow(
      `Sample "T": read 2 is the same file as read 1 (${real})`,
    );
    await expect(
      enqueueSamples(noQueue, [{ name: 'T', read1: r1, read1_parts: [r1, lane2, r1], metadata }]),
    ).rejects.toThrow(`Sample "T": read 1 names ${real} twice`);
    await expect(
      enqueueLane(noQueue, { name: 'L', file: r1, index1: link, annotation: join(d, 'sheet.csv') }),
    ).rejects.toThrow(`Lane "L": index 1 is the same file as read 1 (${real})`);
  });

  it('proposes a lane for an annotation sheet with one multiplexed FASTQ', async () => {
    const d = join(dir.path, 'drop2');
    const file = put(join(d, 'lane7_R1.fastq.gz'), fq('m'));
    const sheet = put(join(d, 'annotation.xlsx'), 'PK');
    const p = await propose([file, sheet]);
    expect(p.kind).toBe('lane');
    expect(p.lane).toEqual({ name: 'lane7', file, read2: null, annotation: sheet });
  });

  it('proposes one sample per Nanopore barcode folder (batches joined), leaves fastq_fail out', async () => {
    const run = join(dir.path, 'np_run');
    put(join(run, 'final_summary_X_Y.txt'), 'acquisition_stopped=2026-11-21\nfastq_files_in_final_dest=3\n');
    put(join(run, 'fastq_pass', 'barcode01', 'a_0.fastq.gz'), fq('1'));
    put(join(run, 'fastq_pass', 'barcode01', 'a_1.fastq.gz'), fq('2'));
    put(join(run, 'fastq_pass', 'barcode02', 'a_0.fastq.gz'), fq('3'));
    put(join(run, 'fastq_fail', 'barcode01', 'a_0.fastq.gz'), fq('4'));
    const p = await propose([run]);
    expect(p.run).toEqual({ kind: 'nanopore', path: run, name: 'np_run' });
    expect(p.samples.map((s) => [s.name, s.read1, s.read1_parts ?? null])).toEqual([
      [
        'np_run_barcode01',
        join(run, 'fastq_pass', 'barcode01', 'a_0.fastq.gz'),
        [join(run, 'fastq_pass', 'barcode01', 'a_0.fastq.gz'), join(run, 'fastq_pass', 'barcode01', 'a_1.fastq.gz')],
      ],
      ['np_run_barcode02', join(run, 'fastq_pass', 'barcode02', 'a_0.fastq.gz'), null],
    ]);
  });
});

describe('run completion', () => {
  it('Nanopore: ready when the final summary says stopped, counts match and hashes agree; failed on a bad hash', async () => {
    const run = join(dir.path, 'np2');
    const a = put(join(run, 'fastq_pass', 'a.fastq.gz'), fq('1'));
    put(join(run, 'final_summary_1.txt'), 'acquisition_stopped=2026-11-21\nfastq_files_in_final_dest=2\n');
    expect((await assessRun(run, 'nanopore', 1000, Date.now())).state).toBe('copying');
    const b = put(join(run, 'fastq_pass', 'b.fastq.gz'), fq('2'));
    const sha = createHash('sha256').update(fq('1')).digest('hex');
    // ONT output specification (protocol_formats/output_hash_file): named columns, any order.
    const hashes = put(
      join(run, 'output_hash_1.csv'),
      `runid,protocol_group_id,flow_cell_id,sample_id,file_hash,file_path\nr,g,FC1,s,${sha},fastq_pass/a.fastq.gz\n`,
    );
    age([a, b, hashes, join(run, 'final_summary_1.txt')]);
    expect((await assessRun(run, 'nanopore', 1000, Date.now())).state).toBe('ready');
    truncateSync(a, 3);
    age([a]);
    const bad = await assessRun(run, 'nanopore', 1000, Date.now());
    expect(bad).toMatchObject({ state: 'failed' });
    expect(bad.note).toMatch(/sha256/);
  });

  it('Element: RunUploaded.json OutcomeCompleted is ready, another outcome failed', async () => {
    const run = join(dir.path, 'el');
    put(join(run, 'RunParameters.json'), '{}');
    expect((await assessRun(run, 'element', 1000, Date.now())).state).toBe('sequencing');
    age([put(join(run, 'RunUploaded.json'), JSON.stringify({ outcome: 'OutcomeFailed' }))]);
    expect((await assessRun(run, 'element', 1000, Date.now())).state).toBe('failed');
    const f = put(join(run, 'RunUploaded.json'), JSON.stringify({ outcome: 'OutcomeCompleted' }));
    age([f, join(run, 'RunParameters.json')]);
    // Sequenced, but Bases2Fastq has not written the FASTQs yet, then not finished (RunStats.json).
    expect(await assessRun(run, 'element', 1000, Date.now())).toMatchObject({ state: 'copying' });
    const fq = put(join(run, 'Samples', 'P1', 'S1', 'S1_R1.fastq'), '@r\nACGT\n+\nFFFF\n');
    age([fq]);
    expect((await assessRun(run, 'element', 1000, Date.now())).note).toMatch(/RunStats\.json/);
    age([put(join(run, 'RunStats.json'), '{}')]);
    expect((await assessRun(run, 'element', 1000, Date.now())).state).toBe('ready');
  });

  it('Illumina: failed from RunCompletionStatus or RTA error logs; generic: ready once settled', async () => {
    const run = join(dir.path, 'il');
    put(join(run, 'RunInfo.xml'), '<RunInfo/>');
    expect((await assessRun(run, 'illumina', 1000, Date.now())).state).toBe('sequencing');
    put(
      join(run, 'RunCompletionStatus.xml'),
      '<RunCompletionStatus><CompletionStatus>ExceptionEndedEarly</CompletionStatus></RunCompletionStatus>',
    );
    expect(await assessRun(run, 'illumina', 1000, Date.now())).toMatchObject({
      state: 'failed',
      note: 'RunCompletionStatus: ExceptionEndedEarly',
    });

    const gen = join(dir.path, 'gen');
    const f = put(join(gen, 'x.fastq.gz'), fq('g'));
    expect((await assessRun(gen, 'generic', 60_000, Date.now())).state).toBe('copying');
    age([f]);
    expect((await assessRun(gen, 'generic', 60_000, Date.now())).state).toBe('ready');
  });

  it('parses sample sheets v1 and v2', () => {
    expect(parseSampleSheet('[Data]\nLane,Sample_ID,Sample_Name,Sample_Project\n1,A1,Alpha,P1\n')).toEqual({
      version: 1,
      samples: [
        { id: 'A1', name: 'Alpha', project: 'P1', lane: 1, index: null, index2: null, organism: null, category: null },
      ],
      adapters: null,
    });
    const v2 =
      '[Header]\nFileFormatVersion,2\n[BCLConvert_Data]\nLane,Sample_ID,Index\n2,B1,ACGT\n[Cloud_Data]\nSample_ID,ProjectName\nB1,Proj\n';
    expect(parseSampleSheet(v2)).toEqual({
      version: 2,
      samples: [
        { id: 'B1', name: 'B1', project: 'Proj', lane: 2, index: 'ACGT', index2: null, organism: null, category: null },
      ],
      adapters: null,
    });
    expect(parseSampleSheet('just text')).toBeNull();
  });
});
