/**
 * Addresses of screens as URL hashes: `#/executions/4`, `#/samples/12`, `#/runs/<run id>`,
 * `#/pipelines/3?upstream=7`. A hash survives reload and Back in Electron's file:// page and in
 * browser mode alike, and needs no server-side fallback.
 */
export const SCREENS = [
  'runs',
  'uploads',
  'watchers',
  'annotation',
  'samples',
  'projects',
  'groups',
  'pipelines',
  'executions',
  'notifications',
  'account',
  'settings',
] as const;
export type Screen = (typeof SCREENS)[number];
export type RouteParams = Record<string, string | number>;
export interface Route {
  screen: Screen;
  params: RouteParams;
}

export const HOME: Route = { screen: 'samples', params: {} };

/** A whole-number string becomes a number (ids), anything else stays a string. */
function value(s: string): string | number {
  return /^[1-9]\d{0,14}$/.test(s) ? Number(s) : s;
}

/** The route a hash names; anything unknown is the home screen. */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = raw.split('?', 2);
  const [screen, id] = path.split('/').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  if (!screen || !(SCREENS as readonly string[]).includes(screen)) return HOME;
  const params: RouteParams = {};
  if (id) params.id = value(id);
  for (const [k, v] of new URLSearchParams(query)) if (k !== 'id' && v !== '') params[k] = value(v);
  return { screen: screen as Screen, params };
}

/** The hash of a route: the `id` parameter as a path segment, the others as a query. */
export function formatHash(screen: Screen, params: RouteParams = {}): string {
  const { id, ...rest } = params;
  const query = new URLSearchParams(
    Object.entries(rest)
      .filter(([, v]) => v !== '' && v !== undefined && v !== null)
      .map(([k, v]) => [k, String(v)]),
  ).toString();
  return `#/${screen}${id !== undefined && id !== '' ? `/${encodeURIComponent(String(id))}` : ''}${query ? `?${query}` : ''}`;
}
