/**
 * Where the screens' own calls go. The token names the active profile's origin; without one
 * (signed out, or before the first token) a lab-service profile still means its own address:
 * falling back to the embedded service's there sent a signed-out lab profile's screens to this
 * computer's service instead.
 */
import type { ProfileList } from '../../../shared/desktop-api/auth-schemas';

export function screensBaseUrl(
  tokenBase: string | null,
  profiles: ProfileList | null,
  embeddedUrl: string | null,
): string | null {
  if (tokenBase) return tokenBase;
  const active = profiles?.profiles.find((p) => p.id === profiles.active_id);
  if (active?.kind === 'remote') return active.url;
  return embeddedUrl;
}
