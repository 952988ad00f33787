/**
 * When an Illumina run is done, from the strongest signal each instrument writes (see
 * docs/instruments.md):
 * 1. sequencing ended: RTAComplete.txt (RTAComplete.xml on some NextSeq 500 software), or
 *    RunCompletionStatus.xml with CompletedAsPlanned (another status, or RTA error logs, fail);
 * 2. copied: CopyComplete.txt, waited for only on the instruments that write it (NovaSeq 6000,
 *    NovaSeq X, NextSeq 1000/2000) and on runs whose instrument is not known;
 * 3. FASTQs written: the analysis software's own end-of-run file, wherever its output folder
 *    is: BCL Convert's Logs/FastqComplete.txt, DRAGEN's Secondary_Analysis_Complete.txt,
 *    MiSeq Reporter's / Local Run Manager's CompletedJobInfo.xml, bcl2fastq's Stats/Stats.json
 *    (written once its statistics are complete);
 * 4. on the instruments that write no copy marker (MiSeq, MiniSeq, iSeq 100, NextSeq 500/550,
 *    HiSeq), FASTQs without any of those files are ready once nothing has changed under the run
 *    folder for the watcher's settle time.
 */
import { readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isFastqName } from '../../../shared/fastq-naming';
import { readIlluminaRunInfo, WRITES_COPY_COMPLETE } from '../instruments/illumina-run';
import type { ScannedFile } from '../files/scan-paths';
import type { RunAssessment } from './run-status';

const ANALYSIS_MARKERS: Array<[RegExp, string]> = [
  [/(^|\/)Logs\/FastqComplete\.txt$/, 'Logs/FastqComplete.txt (BCL Convert)'],
  [/(^|\/)Secondary_Analysis_Complete\.txt$/, 'Secondary_Analysis_Complete.txt (DRAGEN)'],
  [/(^|\/)CompletedJobInfo\.xml$/, 'CompletedJobInfo.xml (MiSeq Reporter / Local Run Manager)'],
  [/(^|\/)Stats\/Stats\.json$/, 'Stats/Stats.json (bcl2fastq)'],
];

const exists = async (path: string) => (await stat(path).catch(() => null)) !== null;

function minutes(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

type Status = Omit<RunAssessment, 'lastChange'>;

/** Assesses an Illumina run folder; `lastChange` is the newest modification under it. */
export async function illuminaStatus(
  dir: string,
  files: readonly ScannedFile[],
  settleMs: number,
  now: number,
  lastChange: number,
): Promise<Status> {
  const rtaLogs = files.filter((f) => /RTALogs/.test(f.dir) && /error/i.test(f.name) && f.size > 0);
  if (rtaLogs.length)
    return { state: 'failed', note: `RTA reported errors in ${rtaLogs.map((f) => f.name).join(', ')}` };
  const status = await readFile(join(dir, 'RunCompletionStatus.xml'), 'utf8').catch(() => null);
  if (status !== null) {
    const m = /<CompletionStatus>([^<]+)<\/CompletionStatus>/.exec(status);
    if (m && m[1] !== 'CompletedAsPlanned') return { state: 'failed', note: `RunCompletionStatus: ${m[1]}` };
  }
  const rta = (await exists(join(dir, 'RTAComplete.txt'))) || (await exists(join(dir, 'RTAComplete.xml')));
  if (!rta && status === null)
    return { state: 'sequencing', note: 'waiting for RTAComplete.txt (the instrument writes it when sequencing ends)' };
  const info = await readIlluminaRunInfo(dir);
  const family = info?.family ?? null;
  const copyMarker = family === null || WRITES_COPY_COMPLETE.has(family);
  if (copyMarker && !(await exists(join(dir, 'CopyComplete.txt'))))
    return { state: 'copying', note: 'waiting for CopyComplete.txt' };
  const rel = (f: ScannedFile) => relative(dir, f.path).split(/[\\/]/).join('/');
  const queued = files.some((f) => rel(f) === 'QueuedForAnalysis.txt');
  const marker = ANALYSIS_MARKERS.find(([re]) => files.some((f) => re.test(rel(f))));
  if (queued && !files.some((f) => /CompletedJobInfo\.xml$/.test(f.name)))
    return { state: 'copying', note: 'MiSeq Reporter queued the analysis; waiting for CompletedJobInfo.xml' };
  const fastqs = files.filter((f) => isFastqName(f.name));
  if (!fastqs.length)
    return {
      state: 'copying',
      note: `waiting for FASTQ files from ${copyMarker ? 'BCL Convert or DRAGEN' : 'bcl2fastq, BCL Convert, MiSeq Reporter or Local Run Manager'} (none under the run folder yet)`,
    };
  if (marker) return { state: 'ready', note: `${fastqs.length} FASTQ files; ${marker[1]}` };
  if (copyMarker)
    return {
      state: 'copying',
      note: `${fastqs.length} FASTQ files present; waiting for Logs/FastqComplete.txt (BCL Convert) or Data/Secondary_Analysis_Complete.txt (DRAGEN). Use Upload now if FASTQ generation has finished`,
    };
  // No file says the FASTQs are complete on this instrument: they must stop changing.
  const why = `${family} writes no copy marker and its FASTQs came with no completion file`;
  if (now - lastChange < settleMs)
    return {
      state: 'copying',
      note: `${fastqs.length} FASTQ files present; ${why}: ready once nothing has changed for ${minutes(settleMs)}`,
      recheckAt: lastChange + settleMs,
    };
  return { state: 'ready', note: `${fastqs.length} FASTQ files, unchanged for ${minutes(settleMs)} (${why})` };
}
