/** Group slugs: ASCII, lowercase, dash-separated, generated once from the name and never changed. */
import type { Db } from '../db/database';
import { slugsLike } from './groups.store';

const MAX_SLUG = 48;

/** The ASCII base slug of a name ("Génomique Lab #2" -> "genomique-lab-2"). */
export function slugify(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[æ]/g, 'ae')
    .replace(/[ø]/g, 'o')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/g, '');
  return ascii || 'group';
}

/** A slug for the name that no group uses yet: the base, else base-2, base-3, ... */
export function uniqueSlug(db: Db, name: string): string {
  const base = slugify(name);
  const taken = slugsLike(db, base);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
