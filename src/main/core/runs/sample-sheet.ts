/**
 * Illumina sample sheets, v1 (`[Data]`) and v2 (`[BCLConvert_Data]`, projects in
 * `[Cloud_Data]`): the sample ids, names, projects, lanes and indexes that name the FASTQ files
 * (with the lab's own Organism and Category columns when it added them), and
 * the adapters BCL Convert was given ([Settings] / [BCLConvert_Settings] AdapterRead1 and
 * AdapterRead2), passed on to Adapter Trimming.
 */
import { parseDelimited, TableReadError } from '../../../shared/sheets';

export interface SheetSample {
  id: string;
  name: string;
  project: string | null;
  lane: number | null;
  /** i7 and i5 (`index`/`index2`, v2 `Index`/`Index2`), null when the sheet has none. */
  index: string | null;
  index2: string | null;
  /** The lab's own Organism / Category columns (any case), when the sheet has them. */
  organism: string | null;
  category: string | null;
}

/** The fields every sheet version shares, from a row keyed by lower-case header. */
function common(row: Record<string, string>): Pick<SheetSample, 'lane' | 'index' | 'index2' | 'organism' | 'category'> {
  const text = (k: string) => (row[k] ?? '').trim() || null;
  return {
    lane: row.lane ? Number(row.lane) : null,
    index: text('index'),
    index2: text('index2'),
    organism: text('organism') ?? text('species'),
    category: text('category') ?? text('sample_type'),
  };
}

export interface SampleSheet {
  version: 1 | 2;
  samples: SheetSample[];
  /** AdapterRead1 / AdapterRead2 (v1 also `Adapter`); null when the sheet names none. */
  adapters: { read1: string | null; read2: string | null } | null;
}

function adapters(rows: string[][] | undefined): SampleSheet['adapters'] {
  const value = (key: string) => {
    const row = rows?.find((r) => r[0]?.toLowerCase() === key.toLowerCase());
    // BCL Convert accepts several adapters joined by "+": trimming takes the first.
    const seq = (row?.[1] ?? '').toUpperCase().split('+')[0]!;
    return /^[ACGTN]+$/.test(seq) ? seq : null;
  };
  const read1 = value('AdapterRead1') ?? value('Adapter');
  const read2 = value('AdapterRead2');
  return read1 || read2 ? { read1, read2 } : null;
}

/**
 * The sheet's sections by lower-case name (`[Data]` → `data`), each a list of rows. The whole
 * text is read as one CSV, so a quoted field may span lines; rows with no value are dropped.
 */
function sections(text: string): Map<string, string[][]> {
  const map = new Map<string, string[][]>();
  let current: string[][] | null = null;
  for (const { fields } of parseDelimited(text).rows) {
    const cells = fields.map((f) => f.trim());
    const header = /^\[([^\]]+)\]$/.exec(cells[0] ?? '');
    if (header) {
      current = [];
      map.set(header[1]!.trim().toLowerCase(), current);
      continue;
    }
    if (!current || cells.every((c) => c === '')) continue;
    current.push(cells);
  }
  return map;
}

function table(rows: string[][] | undefined): Array<Record<string, string>> {
  if (!rows || rows.length < 2) return [];
  const head = rows[0]!.map((h) => h.toLowerCase());
  return rows.slice(1).map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}

/** Parses a sample sheet; null when the text is not one (or is not readable CSV). */
export function parseSampleSheet(text: string): SampleSheet | null {
  let secs: Map<string, string[][]>;
  try {
    secs = sections(text);
  } catch (err) {
    if (err instanceof TableReadError) return null;
    throw err;
  }
  const header = secs.get('header') ?? [];
  const versionRow = header.find((r) => r[0]?.toLowerCase() === 'fileformatversion');
  const v2Data = secs.get('bclconvert_data');
  if (v2Data || versionRow?.[1] === '2') {
    const projects = new Map<string, string>();
    for (const row of table(secs.get('cloud_data')))
      if (row.sample_id && row.projectname) projects.set(row.sample_id, row.projectname);
    const samples = table(v2Data).map((row) => ({
      id: row.sample_id ?? '',
      name: row.sample_id ?? '',
      project: projects.get(row.sample_id ?? '') ?? (row.sample_project || null),
      ...common(row),
    }));
    return { version: 2, samples: samples.filter((s) => s.id), adapters: adapters(secs.get('bclconvert_settings')) };
  }
  const data = secs.get('data');
  if (!data) return null;
  const samples = table(data).map((row) => ({
    id: row.sample_id ?? '',
    name: row.sample_name || row.sample_id || '',
    project: row.sample_project || null,
    ...common(row),
  }));
  return { version: 1, samples: samples.filter((s) => s.id), adapters: adapters(secs.get('settings')) };
}

/** The sheet entry a FASTQ sample prefix names (BCL Convert uses Sample_ID; bcl2fastq Sample_Name). */
export function sheetEntryFor(sheet: SampleSheet | null, prefix: string): SheetSample | null {
  if (!sheet) return null;
  return sheet.samples.find((s) => s.id === prefix) ?? sheet.samples.find((s) => s.name === prefix) ?? null;
}
