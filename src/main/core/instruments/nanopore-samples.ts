/**
 * MinKNOW's reads as samples. ONT's output specification
 * (nanoporetech.github.io/ont-output-specifications/latest/read_formats/fastq) places them at
 * `fastq_{pass|fail}/{alias}/{flow_cell_id}_{pass|fail}_{alias_}{id8}_{id8}_{batch}.fastq.gz`,
 * one file per batch (hourly by default): without barcodes there is no alias folder and the
 * alias part of the name is empty. So a run without barcodes is ONE sample (the run's
 * `sample_id`), a barcoded run one sample per barcode folder; batches are joined in batch
 * order into one read 1 and are never paired with each other (a batch's `_1`/`_2` is its
 * number, not a read). `unclassified` is left out; `fastq_fail` is left out unless asked
 * for, and then joined after the pass batches.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import type { ProposedSample } from '../../../shared/desktop-api/contract';
import { compareBatches, isBarcodeFolder, parseNanoporeBatch } from '../../../shared/fastq-naming';
import type { ScannedFile } from '../files/scan-paths';
import { readFinalSummary } from './nanopore-run';

interface Place {
  runDir: string;
  status: 'pass' | 'fail' | 'skip';
  /** The barcode (or alias) folder; null on a run without barcodes. */
  folder: string | null;
}

/** Where a FASTQ sits in a MinKNOW run, or null when it is not a MinKNOW batch. */
function placeOf(f: ScannedFile): Place | null {
  const parts = f.dir.split(/[\\/]/);
  for (let i = parts.length - 1; i >= 0; i--) {
    const m = /^fastq_(pass|fail|skip)$/.exec(parts[i]!);
    if (m)
      return { runDir: parts.slice(0, i).join(sep), status: m[1] as Place['status'], folder: parts[i + 1] ?? null };
  }
  const batch = parseNanoporeBatch(f.name);
  // A batch dropped on its own (outside its fastq_pass folder) says the same in its name.
  if (batch) return { runDir: f.dir, status: batch.status, folder: batch.alias || null };
  return null;
}

/**
 * What MinKNOW wrote about a run: final_summary_*.txt's fields (empty when there is none). Read
 * from the run folder itself, so batches dropped without it are still named by their run.
 */
async function runFields(runDir: string): Promise<Map<string, string>> {
  const names = await readdir(runDir).catch(() => [] as string[]);
  const summary = names.find((n) => /^final_summary_.*\.txt$/.test(n));
  if (!summary) return new Map();
  return readFinalSummary(await readFile(join(runDir, summary), 'utf8').catch(() => ''));
}

/**
 * The run's sample_id: the final summary's, else the folder MinKNOW's data-root layout puts
 * the run in (`<protocol_group_id>/<sample_id>/<YYYYMMDD_HHMM_position_flowcell_id>/`), else
 * the folder's own name.
 */
function sampleIdOf(runDir: string, fields: Map<string, string>): string {
  const id = fields.get('sample_id');
  if (id) return id;
  if (/^\d{8}_\d{4}_/.test(basename(runDir)) && basename(dirname(runDir))) return basename(dirname(runDir));
  return basename(runDir);
}

export interface NanoporeSplit {
  samples: ProposedSample[];
  /** FASTQs that are no MinKNOW batch (handled by the usual pairing). */
  rest: ScannedFile[];
  /** Left out: unclassified, and fail batches unless asked for. */
  ignored: string[];
}

/** Groups MinKNOW batches into samples; `aliases` maps barcodeNN to the sample sheet's alias. */
export async function nanoporeSamples(
  fastqs: readonly ScannedFile[],
  aliases: ReadonlyMap<string, string>,
  includeFailed: boolean,
): Promise<NanoporeSplit> {
  const groups = new Map<string, { place: Place; files: ScannedFile[] }>();
  const rest: ScannedFile[] = [];
  const ignored: string[] = [];
  for (const f of fastqs) {
    const place = placeOf(f);
    if (!place) rest.push(f);
    else if (place.folder?.toLowerCase() === 'unclassified' || place.status === 'skip') ignored.push(f.path);
    else if (place.status === 'fail' && !includeFailed) ignored.push(f.path);
    else {
      const key = `${place.runDir}\u0000${place.folder ?? ''}`;
      const g = groups.get(key) ?? { place, files: [] };
      g.files.push(f);
      groups.set(key, g);
    }
  }
  const samples: ProposedSample[] = [];
  for (const { place, files: batch } of groups.values()) {
    const fields = await runFields(place.runDir);
    const sampleId = sampleIdOf(place.runDir, fields);
    const folder = place.folder;
    const name = !folder
      ? sampleId
      : isBarcodeFolder(folder)
        ? (aliases.get(folder.toLowerCase()) ?? `${sampleId}_${folder}`)
        : folder;
    // Pass batches first, each status in batch order.
    const statusOf = (f: ScannedFile) => (placeOf(f)!.status === 'pass' ? 0 : 1);
    const parts = [...batch]
      .sort((a, b) => statusOf(a) - statusOf(b) || compareBatches(a.path, b.path))
      .map((f) => f.path);
    const metadata: Record<string, unknown> = { sample_id: sampleId };
    const provenance: Array<[string, string | undefined]> = [
      ['run_id', fields.get('protocol_run_id')],
      ['instrument', [fields.get('instrument'), fields.get('position')].filter(Boolean).join(' ') || undefined],
      ['flowcell', fields.get('flow_cell_id') ?? parseNanoporeBatch(batch[0]!.name)?.flowCell],
      ['experiment', fields.get('protocol_group_id')],
      ['barcode', folder ?? undefined],
    ];
    for (const [k, v] of provenance) if (v) metadata[k] = v;
    samples.push({
      name,
      read1: parts[0]!,
      read2: null,
      lane: null,
      project: null,
      bytes: batch.reduce((s, f) => s + f.size, 0),
      ...(parts.length > 1 ? { read1_parts: parts } : {}),
      metadata,
    });
  }
  return { samples, rest, ignored };
}
