/**
 * Laneway's vocabularies as Flow names them: organisms get a short stable code (`Hs` for Homo
 * sapiens, Flow's style: genus initial plus species initial, lengthened only to stay unique),
 * categories are Flow's sample types (identifier = the category's name), and the metadata
 * fields other than the ones Flow sends as protocol fields are Flow's metadata attributes.
 */
import { canonical, loadVocabularies, type MetadataField, type Organism } from '../vocabularies/vocabularies';

export interface FlowOrganism {
  id: string;
  name: string;
  latin_name: string;
}

let codes: { organisms: readonly Organism[]; list: FlowOrganism[] } | null = null;

/** Every organism with its code, in the vocabulary's order. */
export function flowOrganisms(): FlowOrganism[] {
  const organisms = loadVocabularies().organisms;
  if (codes?.organisms === organisms) return codes.list;
  const used = new Set<string>();
  const list = organisms.map((o) => {
    const [genus = '', species = ''] = o.name.split(/\s+/);
    let code = '';
    for (let n = 1; n <= Math.max(1, species.length) && (!code || used.has(code)); n++) {
      code = `${genus.slice(0, 1).toUpperCase()}${species.slice(0, n).toLowerCase()}`;
    }
    if (used.has(code)) code = o.name.replace(/\s+/g, '_');
    used.add(code);
    return { id: code, name: o.common_name, latin_name: o.name };
  });
  codes = { organisms, list };
  return list;
}

/** The Latin name an organism id (code, or the Latin name itself) stands for, or null. */
export function organismFromFlow(id: string): string | null {
  const v = id.trim().toLowerCase();
  const found = flowOrganisms().find((o) => o.id.toLowerCase() === v || o.latin_name.toLowerCase() === v);
  return found?.latin_name ?? null;
}

/** The category a Flow sample type identifier names, or null. */
export function categoryFromFlow(identifier: string): string | null {
  return canonical(loadVocabularies().categories, identifier);
}

/** Metadata keys that Flow carries as protocol fields of their own (or that only lanes have). */
const NOT_ATTRIBUTES = new Set(['name', 'organism', 'category']);

/** The metadata fields Flow lists as attributes. */
export function flowAttributes(): MetadataField[] {
  return loadVocabularies().fields.filter((f) => !f.lane_only && !NOT_ATTRIBUTES.has(f.key));
}
