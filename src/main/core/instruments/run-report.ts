/**
 * What an instrument wrote about a run, gathered for the proposal and the run's screen:
 * BCL Convert's Demultiplex_Stats.csv and Top_Unknown_Barcodes.csv (wherever its output
 * folder sits in the run), the sample sheet's adapters, Element's RunManifest, and the
 * Undetermined files that stay with the run. A report file that cannot be read is named in a
 * warning; it never stops the proposal.
 */
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { IngestWarning, RunReport } from '../../../shared/desktop-api/contract';
import type { ScannedFile } from '../files/scan-paths';
import type { SampleSheet } from '../runs/sample-sheet';
import { readDemultiplexStats, readTopUnknownBarcodes, undeterminedShare } from './bcl-convert-reports';
import { readRunManifestCsv, readRunManifestJson } from './element-manifest';
import { readElementUnassignedShare } from './element-run-stats';

/** Undetermined (BCL Convert, bcl2fastq), Unassigned (Element Bases2Fastq) and undecoded (MGI) read files. */
export function isUndeterminedRead(name: string): boolean {
  return /^(Undetermined|Unassigned)([_.-]|$)/i.test(name) || /_L0\d_undecoded_[12]\.(fq|fastq)(\.gz)?$/i.test(name);
}

/**
 * Element's PhiX control reads: Bases2Fastq writes the spike-in into Unassigned by default
 * (SpikeInAsUnassigned TRUE) and as its own `PhiX` sample under `Samples/` when a manifest sets
 * it FALSE; labs leave that folder out as they leave out Unassigned (sources in
 * test/fixtures/instruments/element-run.ts). A control, never a sample.
 */
export function isSpikeInControlRead(path: string, name: string): boolean {
  return /^phix([_.-]|$)/i.test(name) && /(^|[\\/])Samples[\\/]/.test(path);
}

const MAX_REPORT_BYTES = 16 * 1024 * 1024;

/** Parses a report; a file that is not the table it should be is named in a warning. */
function parsed<T>(f: ScannedFile, text: string | null, parse: (t: string) => T, warnings: IngestWarning[]): T | null {
  if (text === null) return null;
  try {
    return parse(text);
  } catch (err) {
    warnings.push({
      code: 'unreadable-report',
      path: f.path,
      message: `${f.name} cannot be read: ${(err as Error).message}`,
    });
    return null;
  }
}

async function text(f: ScannedFile, warnings: IngestWarning[]): Promise<string | null> {
  if (f.size > MAX_REPORT_BYTES) {
    warnings.push({ code: 'unreadable-report', path: f.path, message: `${f.name} is larger than 16 MB; not read` });
    return null;
  }
  return readFile(f.path, 'utf8').catch((err: Error) => {
    warnings.push({ code: 'unreadable-report', path: f.path, message: `${f.name} cannot be read: ${err.message}` });
    return null;
  });
}

/** The run's report, or null when the instrument wrote nothing this app reads. */
export async function readRunReport(
  root: string | null,
  files: readonly ScannedFile[],
  sheet: SampleSheet | null,
  warnings: IngestWarning[],
): Promise<RunReport | null> {
  const sources: string[] = [];
  const named = (re: RegExp) => files.find((f) => re.test(f.name));
  const rel = (f: ScannedFile) => (root ? relative(root, f.path) : f.name);
  let demux: RunReport['demux_stats'] = [];
  let unknown: RunReport['top_unknown'] = [];
  let manifest: RunReport['manifest'] = null;
  const stats = named(/^Demultiplex_Stats\.csv$/i);
  if (stats) {
    const rows = parsed(stats, await text(stats, warnings), readDemultiplexStats, warnings);
    if (rows) {
      demux = rows;
      sources.push(rel(stats));
    }
  }
  const top = named(/^Top_Unknown_Barcodes\.csv$/i);
  if (top) {
    const rows = parsed(top, await text(top, warnings), (t) => readTopUnknownBarcodes(t), warnings);
    if (rows) {
      unknown = rows;
      sources.push(rel(top));
    }
  }
  const manifestCsv = files.find((f) => f.name === 'RunManifest.csv' && (!root || f.dir === root));
  const manifestJson = files.find((f) => f.name === 'RunManifest.json' && (!root || f.dir === root));
  if (manifestCsv) {
    manifest = parsed(manifestCsv, await text(manifestCsv, warnings), readRunManifestCsv, warnings);
    if (manifest) sources.push(rel(manifestCsv));
  } else if (manifestJson) {
    manifest = parsed(manifestJson, await text(manifestJson, warnings), readRunManifestJson, warnings);
    if (manifest) sources.push(rel(manifestJson));
  }
  const undeterminedFiles = files.filter((f) => isUndeterminedRead(f.name) && /\.(fastq|fq)(\.gz)?$/i.test(f.name));
  let share = undeterminedShare(demux);
  // Element: Bases2Fastq's RunStats.json at its output's root (the shallowest one) says how many
  // polonies went unassigned.
  const runStats = files
    .filter((f) => f.name === 'RunStats.json')
    .sort((a, b) => a.path.split(/[\\/]/).length - b.path.split(/[\\/]/).length)[0];
  if (!share && runStats && undeterminedFiles.length) {
    const stats = await text(runStats, warnings);
    share = stats === null ? null : readElementUnassignedShare(stats);
    if (share) sources.push(rel(runStats));
  }
  const undetermined = undeterminedFiles.length
    ? {
        files: undeterminedFiles.map((f) => f.path),
        bytes: undeterminedFiles.reduce((s, f) => s + f.size, 0),
        reads: share?.reads ?? null,
        fraction: share?.fraction ?? null,
      }
    : null;
  const adapters = sheet?.adapters ?? null;
  if (!sources.length && !undetermined && !adapters) return null;
  return { undetermined, demux_stats: demux, top_unknown: unknown, adapters, manifest, sources };
}
