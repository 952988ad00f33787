/**
 * What an Illumina run folder says about itself: RunInfo.xml's run id, instrument, flow cell
 * and lane count, and the instrument family, which decides the files that say "done".
 *
 * The family comes from the instrument id's prefix (RunInfo.xml `<Instrument>`), the way
 * sequencing centres' run-folder tools map it (for example arteria-packs and NGI's metadata
 * models: M MiSeq, MN MiniSeq, FS iSeq 100, NS/NB/NDX NextSeq 500/550, VH/VL NextSeq
 * 2000/1000, A NovaSeq 6000, LH NovaSeq X, D HiSeq 2500, SN HiSeq 2000, J/K HiSeq 3000/4000,
 * ST/E HiSeq X), else from RunParameters.xml's application or instrument type.
 *
 * CopyComplete.txt is written by the NovaSeq 6000, the NovaSeq X ("Output Folder Structure",
 * support-docs.illumina.com/IN/NovaSeqX) and the NextSeq 1000/2000 (its "flag files",
 * knowledge.illumina.com 000002443); the NextSeq 500/550 ("Sequencing Output Folder
 * Structure"), MiSeq ("File paths for the MiSeq"), MiniSeq, iSeq 100 and HiSeq write
 * RTAComplete and no copy marker, and their analysis software (bcl2fastq, MiSeq Reporter,
 * Local Run Manager) writes no FastqComplete.txt.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type IlluminaFamily =
  | 'MiSeq'
  | 'MiniSeq'
  | 'iSeq 100'
  | 'NextSeq 500/550'
  | 'NextSeq 1000/2000'
  | 'NovaSeq 6000'
  | 'NovaSeq X'
  | 'HiSeq 2500'
  | 'HiSeq 3000/4000'
  | 'HiSeq X';

export interface IlluminaRunInfo {
  runId: string | null;
  instrument: string | null;
  flowcell: string | null;
  lanes: number | null;
  family: IlluminaFamily | null;
}

// Longest prefixes first: MN before M, NDX before ND.
const PREFIXES: Array<[RegExp, IlluminaFamily]> = [
  [/^MN\d/i, 'MiniSeq'],
  [/^M\d/i, 'MiSeq'],
  [/^FS\d/i, 'iSeq 100'],
  [/^(NS|NB|NDX)\d/i, 'NextSeq 500/550'],
  [/^(VH|VL)\d/i, 'NextSeq 1000/2000'],
  [/^LH\d/i, 'NovaSeq X'],
  [/^A\d/i, 'NovaSeq 6000'],
  [/^(D|SN)\d/i, 'HiSeq 2500'],
  [/^(J|K)\d/i, 'HiSeq 3000/4000'],
  [/^(ST|E)\d/i, 'HiSeq X'],
];

// RunParameters.xml: <ApplicationName>MiSeq Control Software</ApplicationName>, or the
// NextSeq 1000/2000 and NovaSeq X <InstrumentType>.
const APPLICATIONS: Array<[RegExp, IlluminaFamily]> = [
  [/MiniSeq/i, 'MiniSeq'],
  [/MiSeq/i, 'MiSeq'],
  [/iSeq/i, 'iSeq 100'],
  [/NextSeq\s*(1000|2000)/i, 'NextSeq 1000/2000'],
  [/NextSeq/i, 'NextSeq 500/550'],
  [/NovaSeq\s*X/i, 'NovaSeq X'],
  [/NovaSeq/i, 'NovaSeq 6000'],
  [/HiSeq\s*X/i, 'HiSeq X'],
  [/HiSeq/i, 'HiSeq 2500'],
];

/** Families whose control software writes CopyComplete.txt when the run folder is copied. */
export const WRITES_COPY_COMPLETE: ReadonlySet<IlluminaFamily> = new Set([
  'NovaSeq 6000',
  'NovaSeq X',
  'NextSeq 1000/2000',
]);

function element(xml: string, name: string): string | null {
  const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
  return m ? m[1]!.trim() || null : null;
}

/** The family an instrument id (or RunParameters.xml's text) stands for. */
export function familyOf(instrument: string | null, runParameters: string | null): IlluminaFamily | null {
  const byId = instrument ? PREFIXES.find(([re]) => re.test(instrument)) : undefined;
  if (byId) return byId[1];
  const app = runParameters
    ? (element(runParameters, 'ApplicationName') ??
      element(runParameters, 'InstrumentType') ??
      element(runParameters, 'Application'))
    : null;
  return app ? (APPLICATIONS.find(([re]) => re.test(app))?.[1] ?? null) : null;
}

/** RunInfo.xml's fields: `<Run Id=".." Number="..">`, `<Flowcell>`, `<Instrument>`, `<FlowcellLayout LaneCount>`. */
export function parseRunInfo(xml: string, runParameters: string | null = null): IlluminaRunInfo {
  const instrument = element(xml, 'Instrument');
  const lanes = /<FlowcellLayout[^>]*\bLaneCount="(\d+)"/.exec(xml);
  return {
    runId: /<Run\b[^>]*\bId="([^"]+)"/.exec(xml)?.[1] ?? null,
    instrument,
    flowcell: element(xml, 'Flowcell'),
    lanes: lanes ? Number(lanes[1]) : null,
    family: familyOf(instrument, runParameters),
  };
}

/** Reads a run folder's RunInfo.xml (and RunParameters.xml / runParameters.xml for the family). */
export async function readIlluminaRunInfo(dir: string): Promise<IlluminaRunInfo | null> {
  const info = await readFile(join(dir, 'RunInfo.xml'), 'utf8').catch(() => null);
  if (info === null) return null;
  const params =
    (await readFile(join(dir, 'RunParameters.xml'), 'utf8').catch(() => null)) ??
    (await readFile(join(dir, 'runParameters.xml'), 'utf8').catch(() => null));
  return parseRunInfo(info, params);
}

/**
 * On-instrument analysis writes each run of it to a new numbered folder (DRAGEN's
 * `Analysis/<n>/`, Local Run Manager's `Alignment_<n>/`): a requeued analysis leaves the older
 * FASTQs beside the newer ones. Only the newest analysis's FASTQs are the run's; the others
 * are answered as superseded. FASTQs outside numbered folders are kept.
 */
export function newestAnalysis<F extends { path: string }>(files: readonly F[]): { kept: F[]; superseded: F[] } {
  const numberOf = (f: F) => {
    const m = /(?:^|[\\/])(?:Analysis[\\/]|Alignment_)(\d+)(?:[\\/])/.exec(f.path);
    return m ? Number(m[1]) : null;
  };
  const numbers = files.map(numberOf).filter((n): n is number => n !== null);
  if (new Set(numbers).size < 2) return { kept: [...files], superseded: [] };
  const newest = Math.max(...numbers);
  const kept = files.filter((f) => numberOf(f) === null || numberOf(f) === newest);
  return { kept, superseded: files.filter((f) => !kept.includes(f)) };
}
