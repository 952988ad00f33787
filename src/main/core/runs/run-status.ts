/**
 * Where an instrument run stands, read from the files its instrument writes (read only: the
 * app never writes into instrument folders). Illumina: see illumina-status.ts. Nanopore: final_summary_*.txt (acquisition_stopped, file counts) and output_hash_*.csv.
 * Element: RunUploaded.json OutcomeCompleted, then Bases2Fastq's RunStats.json. Generic: nothing changed for a settle time (MGI
 * lanes also wait for their *.summaryReport.html).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { InstrumentKind, RunState } from '../../../shared/desktop-api/contract';
import { isFastqName } from '../../../shared/fastq-naming';
import { scanPaths, type ScannedFile } from '../files/scan-paths';
import { readFinalSummary, readOutputHashes, type OutputHash } from '../instruments/nanopore-run';
import { mgiLanesPending } from '../instruments/mgi-run';
import { illuminaStatus } from './illumina-status';

export interface RunAssessment {
  state: Extract<RunState, 'detected' | 'sequencing' | 'copying' | 'ready' | 'failed'>;
  note: string | null;
  /** Newest modification time under the run folder (stale detection, generic settle). */
  lastChange: number;
  /**
   * When the run waits only for its files to settle: the moment to look again. No file event
   * may come after the last write, so the watcher re-assesses then instead of waiting for
   * the periodic rescan.
   */
  recheckAt?: number;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function nanopore(dir: string, files: ScannedFile[]): Promise<Omit<RunAssessment, 'lastChange'>> {
  const summary = files.find((f) => f.dir === dir && /^final_summary_.*\.txt$/.test(f.name));
  if (!summary) return { state: 'sequencing', note: 'waiting for final_summary_*.txt (MinKNOW writes it last)' };
  const fields = readFinalSummary(await readFile(summary.path, 'utf8'));
  if (!fields.get('acquisition_stopped'))
    return { state: 'sequencing', note: `waiting for acquisition_stopped in ${summary.name}` };
  const expected = Number(fields.get('fastq_files_in_final_dest') ?? NaN);
  const fastqs = files.filter((f) => isFastqName(f.name));
  if (Number.isFinite(expected) && fastqs.length < expected)
    return { state: 'copying', note: `waiting for FASTQ files: ${fastqs.length} of ${expected} (${summary.name})` };
  for (const hashes of files.filter((f) => f.dir === dir && /^output_hash_.*\.csv$/.test(f.name))) {
    let listed: OutputHash[];
    try {
      listed = readOutputHashes(await readFile(hashes.path, 'utf8'), hashes.name);
    } catch (err) {
      return { state: 'failed', note: (err as Error).message };
    }
    for (const { path: file, sha256 } of listed) {
      const path = join(dir, ...file.split('/'));
      if (!(await exists(path))) return { state: 'copying', note: `waiting for ${file} (listed in ${hashes.name})` };
      if ((await sha256File(path)) !== sha256)
        return {
          state: 'failed',
          note: `${file} does not match its sha256 in ${hashes.name} (corrupted or still being copied)`,
        };
    }
  }
  return { state: 'ready', note: `${fastqs.length} FASTQ files` };
}

/**
 * Element AVITI: RunUploaded.json's outcome says the run is sequenced and uploaded, but its
 * FASTQs come after, from Bases2Fastq, which writes `Samples/<project>/<sample>/` and, when it
 * finishes, RunStats.json at its output's root (SciLifeLab/TACA's Element run class: no
 * Demultiplexing/RunStats.json yet means "ongoing"; openpipelines-bio/openpipeline's
 * bases2fastq test lists the output tree). So a completed run waits for FASTQs and for a
 * RunStats.json above them.
 */
async function element(dir: string, files: ScannedFile[]): Promise<Omit<RunAssessment, 'lastChange'>> {
  const sequenced = await elementOutcome(dir);
  // Bases2Fastq's own output folder (a lab's `<run>_b2f`) holds no RunUploaded.json: the run was
  // sequenced before Bases2Fastq ran, and its RunStats.json at the root says it finished.
  const ownOutput =
    sequenced.state === 'sequencing' &&
    files.some((f) => f.name === 'RunStats.json' && resolve(f.dir) === resolve(dir));
  if (sequenced.state !== 'ready' && !ownOutput) return sequenced;
  const fastqs = files.filter((f) => isFastqName(f.name));
  if (!fastqs.length) return { state: 'copying', note: "sequenced; waiting for Bases2Fastq's FASTQs" };
  // Bases2Fastq's output folder is the user's choice (the run folder, Demultiplexing/, ...), and
  // with its options it may have no Samples/ level: a RunStats.json above the FASTQs counts.
  const stats = files.filter((f) => f.name === 'RunStats.json').map((f) => f.dir + sep);
  const unfinished = fastqs.find((f) => !stats.some((d) => f.path.startsWith(d)));
  if (unfinished)
    return {
      state: 'copying',
      note: `waiting for Bases2Fastq's RunStats.json above ${unfinished.name} (written when it finishes)`,
    };
  return { state: 'ready', note: `${fastqs.length} FASTQ files` };
}

async function elementOutcome(dir: string): Promise<Omit<RunAssessment, 'lastChange'>> {
  const uploaded = await readFile(join(dir, 'RunUploaded.json'), 'utf8').catch(() => null);
  if (uploaded === null) return { state: 'sequencing', note: null };
  let outcome: string;
  try {
    const parsed = JSON.parse(uploaded) as { outcome?: unknown; Outcome?: unknown };
    outcome = String(parsed.outcome ?? parsed.Outcome ?? '');
  } catch {
    return { state: 'copying', note: 'RunUploaded.json is still being written' };
  }
  if (outcome === 'OutcomeCompleted') return { state: 'ready', note: null };
  return { state: 'failed', note: `RunUploaded.json: ${outcome || 'no outcome'}` };
}

/** Assesses a run folder of a kind at a moment. */
export async function assessRun(
  dir: string,
  kind: InstrumentKind,
  settleMs: number,
  now: number,
): Promise<RunAssessment> {
  const files = await scanPaths([dir]);
  const lastChange = Math.max(
    0,
    ...(await Promise.all(files.map(async (f) => (await stat(f.path).catch(() => null))?.mtimeMs ?? 0))),
  );
  let result: Omit<RunAssessment, 'lastChange'>;
  if (kind === 'illumina') {
    result = await illuminaStatus(dir, files, settleMs, now, lastChange);
    if (result.recheckAt !== undefined) return { ...result, lastChange };
  } else if (kind === 'nanopore') result = await nanopore(dir, files);
  else if (kind === 'element') result = await element(dir, files);
  else if (!files.some((f) => isFastqName(f.name))) result = { state: 'detected', note: 'no FASTQ files yet' };
  else if (mgiLanesPending(files).length)
    result = {
      state: 'copying',
      note: `waiting for the lane summary report (*.summaryReport.html) of ${mgiLanesPending(files).join(', ')}`,
    };
  else if (now - lastChange < settleMs)
    return { state: 'copying', note: 'files are still changing', lastChange, recheckAt: lastChange + settleMs };
  else result = { state: 'ready', note: null };
  // A marker can land before the last FASTQ is flushed: ready only once files settled briefly.
  // A Nanopore hash mismatch seen while files still change (checked mid-copy) is looked at again.
  const quiet = Math.min(settleMs, 5_000);
  const settling = result.state === 'ready' || (result.state === 'failed' && kind === 'nanopore');
  if (settling && kind !== 'generic' && now - lastChange < quiet)
    return { state: 'copying', note: 'files are still changing', lastChange, recheckAt: lastChange + quiet };
  return { ...result, lastChange };
}

/** The run folders directly inside a watched folder. */
export async function listRunFolders(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => join(root, e.name))
    .sort();
}
