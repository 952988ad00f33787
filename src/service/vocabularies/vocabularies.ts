/**
 * The controlled vocabularies samples are described with: organisms, categories (the sample
 * type) and the metadata fields with their descriptions. They ship as JSON under
 * resources/vocabularies (a lab may point LANEWAY_VOCABULARIES_DIR at its own) and are read
 * once per service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resourcesDir } from '../../node/resources-dir';

export interface Organism {
  name: string;
  common_name: string;
  taxonomy_id: number | null;
}

export interface Category {
  name: string;
  description: string;
}

export interface MetadataField {
  key: string;
  label: string;
  required: boolean;
  lane_only?: boolean;
  type: 'text' | 'list' | 'integer';
  vocabulary?: 'organisms' | 'categories';
  description: string;
  rule: string;
  example: string;
}

export interface Vocabularies {
  organisms: Organism[];
  categories: Category[];
  fields: MetadataField[];
}

/** The folder the vocabularies are read from. */
export function vocabulariesDir(): string {
  return process.env.LANEWAY_VOCABULARIES_DIR ?? resourcesDir('vocabularies');
}

let cached: { dir: string; vocab: Vocabularies } | null = null;

/** Reads (once) the vocabularies. */
export function loadVocabularies(dir = vocabulariesDir()): Vocabularies {
  if (cached?.dir === dir) return cached.vocab;
  const read = <T>(name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as T;
  const vocab: Vocabularies = {
    organisms: read<Organism[]>('organisms.json'),
    categories: read<Category[]>('categories.json'),
    fields: read<MetadataField[]>('metadata-fields.json'),
  };
  cached = { dir, vocab };
  return vocab;
}

/** The vocabulary as the annotation rules want it: allowed names per column. */
export function annotationVocabulary(v: Vocabularies): { organisms: string[]; categories: string[] } {
  return { organisms: v.organisms.map((o) => o.name), categories: v.categories.map((c) => c.name) };
}

/** The canonical spelling of a vocabulary value (matched without regard to case), or null. */
export function canonical(list: ReadonlyArray<{ name: string }>, value: string): string | null {
  const v = value.trim().toLowerCase();
  return list.find((x) => x.name.toLowerCase() === v)?.name ?? null;
}

/** The metadata key a sheet header or field label stands for (known fields by label or key). */
export function metadataKeyFor(fields: readonly MetadataField[], header: string): string {
  const norm = (s: string) => s.toLowerCase().replace(/[\s_\-*]+/g, '');
  const h = norm(header);
  return fields.find((f) => norm(f.label) === h || norm(f.key) === h)?.key ?? header.trim();
}
