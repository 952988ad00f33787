/**
 * Pure rules for sequencing file names: what kind of file a name is, how BCL Convert and
 * common FASTQ names encode sample, lane and read, and how reads pair into samples. The core
 * uses them for drops and run folders; the renderer uses them to preview a drop.
 */

export type FileClass = 'fastq' | 'fastq-ora' | 'bam' | 'sheet' | 'reference' | 'other';

/** References the service takes as data (FASTA, GTF, GFF3, BED), plain or compressed. */
const REFERENCE_RE = /\.(fa|fasta|fna|gtf|gff|gff3|bed)(\.(gz|bgz))?$/i;

const FASTQ_RE = /\.(fastq|fq)(\.gz)?$/i;

/** True for names the service accepts for upload: .fastq, .fq, .fastq.gz, .fq.gz. */
export function isFastqName(name: string): boolean {
  return FASTQ_RE.test(name);
}

/** Classifies a file name for drop ingest. */
export function classifyFile(name: string): FileClass {
  const lower = name.toLowerCase();
  if (isFastqName(lower)) return 'fastq';
  if (lower.endsWith('.fastq.ora') || lower.endsWith('.fq.ora')) return 'fastq-ora';
  if (lower.endsWith('.bam') || lower.endsWith('.cram') || lower.endsWith('.sam')) return 'bam';
  if (lower.endsWith('.xlsx') || lower.endsWith('.csv') || lower.endsWith('.tsv')) return 'sheet';
  if (REFERENCE_RE.test(lower)) return 'reference';
  return 'other';
}

/** What a FASTQ name says about its contents. */
export interface FastqName {
  /** The sample part of the name (BCL Convert: Sample_ID or Sample_Name). */
  sample: string;
  /** BCL Convert sample number (`S1` -> 1), when present. */
  sampleNumber: number | null;
  lane: number | null;
  /** 1 or 2 for reads, null when the name says nothing. */
  read: 1 | 2 | null;
  /** True for index reads (I1, I2), which are never proposed as sample reads. */
  index: boolean;
}

// Sample_S1_L001_R1_001.fastq.gz (and the no-lane-splitting form Sample_S1_R1_001.fastq.gz).
const BCL_RE = /^(.+?)_S(\d+)(?:_L(\d{3}))?_([RI])([12])_\d{3}\.(?:fastq|fq)(?:\.gz)?$/i;
// Element Bases2Fastq with --split-lanes: <SampleName>_L1_R1.fastq.gz (lane unpadded, no
// sample number, no _001; see test/fixtures/instruments/element-run.ts for the sources).
const ELEMENT_LANE_RE = /^(.+?)_L(\d)_([RI])([12])\.(?:fastq|fq)(?:\.gz)?$/i;
// MGI DNBSEQ: <FLOWCELL>_L01_<barcode>_1.fq.gz (see src/main/core/instruments/mgi-run.ts).
const MGI_RE = /^([A-Z0-9]{6,})_L0(\d)_([A-Za-z0-9-]+)_([12])\.(?:fq|fastq)(?:\.gz)?$/;
// name_R1.fastq.gz, name.R2.fq, name_R1_001.fastq.gz, name_1.fastq.gz
const COMMON_RE = /^(.+?)[._]([RI]?)([12])(?:_\d{3})?\.(?:fastq|fq)(?:\.gz)?$/i;

/** Parses a FASTQ file name; null for names that are not FASTQ. */
export function parseFastqName(name: string): FastqName | null {
  if (!isFastqName(name)) return null;
  const bcl = BCL_RE.exec(name);
  if (bcl) {
    return {
      sample: bcl[1]!,
      sampleNumber: Number(bcl[2]),
      lane: bcl[3] ? Number(bcl[3]) : null,
      read: bcl[4]!.toUpperCase() === 'R' ? (Number(bcl[5]) as 1 | 2) : null,
      index: bcl[4]!.toUpperCase() === 'I',
    };
  }
  const element = ELEMENT_LANE_RE.exec(name);
  if (element) {
    // One sample on several lanes, joined like BCL Convert's L001..L004.
    return {
      sample: element[1]!,
      sampleNumber: null,
      lane: Number(element[2]),
      read: element[3]!.toUpperCase() === 'R' ? (Number(element[4]) as 1 | 2) : null,
      index: element[3]!.toUpperCase() === 'I',
    };
  }
  const mgi = MGI_RE.exec(name);
  if (mgi) {
    // One sample per flow cell and barcode; its lanes are joined like BCL Convert's. A lane the
    // instrument did not split (`<FLOWCELL>_L01_read_1.fq.gz`, as c3g/GenPipes reads MGI output
    // written without barcode splitting) is the lane's whole reads: one per lane, never joined.
    const unsplit = mgi[3] === 'read';
    return {
      sample: unsplit ? `${mgi[1]}_L0${mgi[2]}` : `${mgi[1]}_${mgi[3]}`,
      sampleNumber: null,
      lane: Number(mgi[2]),
      read: Number(mgi[4]) as 1 | 2,
      index: false,
    };
  }
  const common = COMMON_RE.exec(name);
  if (common) {
    const isIndex = common[2]!.toUpperCase() === 'I';
    return {
      sample: common[1]!,
      sampleNumber: null,
      lane: null,
      read: isIndex ? null : (Number(common[3]) as 1 | 2),
      index: isIndex,
    };
  }
  return { sample: name.replace(FASTQ_RE, ''), sampleNumber: null, lane: null, read: null, index: false };
}

export interface PairedSample<F> {
  name: string;
  /** bcl2fastq's and BCL Convert's `_S<n>_`: the sample's row in the sample sheet; null without. */
  sampleNumber?: number | null;
  lane: number | null;
  read1: F;
  read2: F | null;
}

export interface Pairing<F> {
  samples: PairedSample<F>[];
  /** A read 2 without its read 1, or two files claiming the same read. */
  unpaired: F[];
  /** Index reads (I1/I2): not sample data. */
  indexReads: F[];
}

/**
 * Sample-sheet order where the names carry it (`_S<n>_`: S1 first, Undetermined's S0 after the
 * numbered ones), as the instrument's software lists them; then by name, then lane.
 */
export function compareSamples(
  a: { name: string; sampleNumber?: number | null; lane: number | null },
  b: { name: string; sampleNumber?: number | null; lane: number | null },
): number {
  const rank = (n: number | null | undefined) => (n === null || n === undefined ? Infinity : n === 0 ? 1e9 : n);
  return rank(a.sampleNumber) - rank(b.sampleNumber) || a.name.localeCompare(b.name) || (a.lane ?? 0) - (b.lane ?? 0);
}

/**
 * Pairs FASTQ files into samples by name: R1 with R2 of the same sample and lane. A sample that
 * spans several lanes becomes one sample per lane named `<sample>_L00n`, because the service
 * takes exactly one read 1 and one read 2 per sample. A file with no read marker is a
 * single-end sample of its own.
 */
export function pairFastqs<F>(files: readonly F[], nameOf: (file: F) => string): Pairing<F> {
  const groups = new Map<
    string,
    { sample: string; sampleNumber: number | null; lane: number | null; r1: F[]; r2: F[]; single: F[] }
  >();
  const indexReads: F[] = [];
  for (const file of files) {
    const parsed = parseFastqName(nameOf(file));
    if (!parsed) continue;
    if (parsed.index) {
      indexReads.push(file);
      continue;
    }
    const key = `${parsed.sample}\u0000${parsed.lane ?? ''}`;
    let group = groups.get(key);
    if (!group)
      groups.set(
        key,
        (group = {
          sample: parsed.sample,
          sampleNumber: parsed.sampleNumber,
          lane: parsed.lane,
          r1: [],
          r2: [],
          single: [],
        }),
      );
    if (parsed.read === 1) group.r1.push(file);
    else if (parsed.read === 2) group.r2.push(file);
    else group.single.push(file);
  }
  const lanesPerSample = new Map<string, number>();
  for (const g of groups.values()) lanesPerSample.set(g.sample, (lanesPerSample.get(g.sample) ?? 0) + 1);

  const samples: PairedSample<F>[] = [];
  const unpaired: F[] = [];
  for (const g of groups.values()) {
    const name =
      g.lane !== null && (lanesPerSample.get(g.sample) ?? 0) > 1
        ? `${g.sample}_L${String(g.lane).padStart(3, '0')}`
        : g.sample;
    if (g.r1.length === 1) {
      samples.push({
        name,
        sampleNumber: g.sampleNumber,
        lane: g.lane,
        read1: g.r1[0]!,
        read2: g.r2.length === 1 ? g.r2[0]! : null,
      });
      if (g.r2.length > 1) unpaired.push(...g.r2);
    } else {
      unpaired.push(...g.r1, ...g.r2);
    }
    for (const single of g.single) {
      samples.push({
        name: g.single.length > 1 || g.r1.length ? nameOf(single).replace(FASTQ_RE, '') : name,
        sampleNumber: g.sampleNumber,
        lane: g.lane,
        read1: single,
        read2: null,
      });
    }
  }
  samples.sort(compareSamples);
  return { samples, unpaired, indexReads };
}

/** True when the name is a Nanopore barcode folder (`barcode01`, `unclassified` excluded). */
export function isBarcodeFolder(name: string): boolean {
  return /^barcode\d{2,3}$/i.test(name);
}

/** What a MinKNOW batch file's name says (ONT output specification, "FASTQ" read format). */
export interface NanoporeBatchName {
  flowCell: string;
  status: 'pass' | 'fail' | 'skip';
  /** The barcode or its alias (`barcode01`, `unclassified`); '' on a run without barcodes. */
  alias: string;
  /** The two short ids (protocol run, acquisition run) as written, in file order. */
  runIds: [string, string];
  batch: number;
}

// {flow_cell_id}_{pass|fail}[_duplex]_{alias_}{short id}_{short id}_{batch_number}.fastq.gz
// (nanoporetech.github.io/ont-output-specifications/latest/read_formats/fastq). Without
// barcodes the alias part is empty, which MinKNOW writes as a doubled underscore.
const NANOPORE_RE =
  /^([A-Za-z0-9-]+)_(pass|fail|skip)(?:_duplex)?_(?:(.*?)_)?_?([0-9a-f]{8})_([0-9a-f]{8})_(\d+)\.(?:fastq|fq)(?:\.gz)?$/;

/** Parses a MinKNOW batch file name; null for other names. */
export function parseNanoporeBatch(name: string): NanoporeBatchName | null {
  const m = NANOPORE_RE.exec(name);
  if (!m) return null;
  return {
    flowCell: m[1]!,
    status: m[2] as NanoporeBatchName['status'],
    alias: m[3] ?? '',
    runIds: [m[4]!, m[5]!],
    batch: Number(m[6]),
  };
}

/**
 * Orders MinKNOW batches as MinKNOW wrote them: by batch number (`_2` before `_10`), names
 * that are no batch after, by name.
 */
export function compareBatches(a: string, b: string): number {
  const name = (p: string) => p.split(/[\\/]/).pop()!;
  const na = parseNanoporeBatch(name(a))?.batch ?? Infinity;
  const nb = parseNanoporeBatch(name(b))?.batch ?? Infinity;
  return na !== nb ? (na < nb ? -1 : 1) : a < b ? -1 : a > b ? 1 : 0;
}
