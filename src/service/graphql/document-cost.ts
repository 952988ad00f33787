/**
 * The cost limit of a GraphQL document (issue 24 item 7): how many fields it asks for, with every
 * fragment spread counted as often as it is spread (as execution expands it). A query is capped
 * at 100,000 characters, but 1,900 aliases of `pipelines { versions { parameters { name } } }`
 * in 82 kB took 1.4 s of the service's time and answered 1.7 MB. Clients ask for a few dozen
 * fields; the limit is far above that and far below what costs seconds.
 */
import { Kind, parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

export const MAX_FIELDS = 500;

/** The fields a document asks for, stopping once past `cap`. */
export function fieldCount(doc: DocumentNode, cap = MAX_FIELDS): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let count = 0;
  const walk = (set: SelectionSetNode, inside: Set<string>): void => {
    for (const s of set.selections) {
      if (count > cap) return;
      if (s.kind === Kind.FIELD) {
        count += 1;
        if (s.selectionSet) walk(s.selectionSet, inside);
      } else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet, inside);
      else {
        const name = s.name.value;
        const f = fragments.get(name);
        // A cycle is refused by validation later; here it only must not loop.
        if (f && !inside.has(name)) walk(f.selectionSet, new Set([...inside, name]));
      }
    }
  };
  for (const d of doc.definitions) if (d.kind === Kind.OPERATION_DEFINITION) walk(d.selectionSet, new Set());
  return count;
}

/** Why a query is too costly to run, or null (a query that does not parse is left to GraphQL's own answer). */
export function documentCostRefusal(source: string): string | null {
  let doc: DocumentNode;
  try {
    doc = parse(source);
  } catch {
    return null;
  }
  const n = fieldCount(doc);
  return n > MAX_FIELDS
    ? `At most ${MAX_FIELDS} fields per request, fragments counted as spread (this one asks for more)`
    : null;
}
