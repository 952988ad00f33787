/**
 * Finds the descriptor of a GET by its concrete path: how the desktop core answers a screen that
 * reads through it (a Flow profile's screens, `service:read` and `service:send`). Only descriptors' own routes match,
 * so a path the API does not define is never sent on.
 */
import type { Endpoint } from './endpoint';
import * as endpoints from './endpoints';

/** The descriptors of a module's exports, also those grouped in an object (the share endpoints, one set per kind). */
function descriptorsIn(value: unknown): Endpoint[] {
  if (typeof value !== 'object' || value === null) return [];
  const e = value as Endpoint;
  if (typeof e.method === 'string' && typeof e.path === 'string') return [e];
  return Object.values(value).flatMap(descriptorsIn);
}

const ALL: Endpoint[] = descriptorsIn({ ...endpoints });

/** A template `/api/lanes/:id` as a pattern; its parameter names in order. */
function patternOf(path: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split('/')
    .map((seg) => {
      if (!seg.startsWith(':')) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(seg.slice(1));
      return '([^/]+)';
    })
    .join('/');
  // `/api/samples/` and `/api/samples` are one path (the service ignores the trailing slash).
  return { re: new RegExp(`^${source.replace(/\/$/, '')}/?$`), names };
}

const PATTERNS = ALL.map((endpoint) => ({ endpoint, ...patternOf(endpoint.path) }));

type Match = { endpoint: Endpoint; params: Record<string, string>; query: Record<string, string> };

/** The GET descriptor a path names, with its parameters and query; null when none does. */
export function matchGet(pathWithQuery: string): Match | null {
  return matchEndpoint('GET', pathWithQuery);
}

/** The descriptor of `method` a path names (a Flow profile's changes, `service:send`); null when none does. */
export function matchEndpoint(method: string, pathWithQuery: string): Match | null {
  const [pathname = '', search = ''] = pathWithQuery.split('?', 2);
  const query: Record<string, string> = {};
  for (const pair of search.split('&')) {
    if (!pair) continue;
    const [k = '', v = ''] = pair.split('=', 2);
    query[decodeURIComponent(k.replace(/\+/g, ' '))] = decodeURIComponent(v.replace(/\+/g, ' '));
  }
  // Literal paths win over parameterised ones (`/api/samples/types` before `/api/samples/:id`).
  const ranked = [...PATTERNS].sort((a, b) => a.names.length - b.names.length);
  for (const p of ranked) {
    if (p.endpoint.method.toUpperCase() !== method.toUpperCase()) continue;
    const m = p.re.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    p.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1]!)));
    return { endpoint: p.endpoint, params, query };
  }
  return null;
}
