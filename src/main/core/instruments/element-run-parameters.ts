/**
 * Provenance of an Element AVITI run from the RunParameters.json AVITI OS writes into the run
 * folder: `InstrumentName` and `FlowcellID` (the fields SciLifeLab/TACA's Element run class
 * reads, with RunName, Side and Date). The run's id stays the folder's name, which AVITI OS
 * makes unique (`<date>_<instrument>_<side><flow cell>`); RunName is typed by the operator.
 * A file that is missing or not JSON gives nothing, never an error.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const MAX_BYTES = 1024 * 1024;

/** instrument and flowcell for a sample's metadata (only the fields the file has). */
export async function elementProvenance(dir: string): Promise<Record<string, string>> {
  const text = await readFile(join(dir, 'RunParameters.json'), 'utf8').catch(() => null);
  if (text === null || text.length > MAX_BYTES) return {};
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return {};
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return {};
  const p = doc as Record<string, unknown>;
  const text1 = (v: unknown) => (typeof v === 'string' && v.trim() && v.length <= 200 ? v.trim() : null);
  const out: Record<string, string> = {};
  const instrument = text1(p.InstrumentName);
  if (instrument) out.instrument = `${instrument} (Element AVITI)`;
  const flowcell = text1(p.FlowcellID);
  if (flowcell) out.flowcell = flowcell;
  return out;
}
