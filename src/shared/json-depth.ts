/**
 * How deeply a parsed JSON value nests. Untrusted JSON is parsed fine at any depth, but the
 * recursive code that later walks it (JSON.stringify when storing, schema validation, GraphQL
 * coercion) overflows the stack at a few thousand levels. Measured without recursion, so that
 * measuring can never overflow itself.
 */

/** The deepest nesting any request body or stored JSON value may have. */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests deeper than `max` arrays/objects (iterative, stops early). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
