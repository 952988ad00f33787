/**
 * Service profiles persisted in the state folder: the embedded local service and any number
 * of remote URLs, one active. The embedded profile always exists and cannot be removed.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Profile, ProfileList } from '../../../shared/desktop-api/contract';

export interface StoredProfile {
  id: string;
  name: string;
  kind: 'embedded' | 'remote';
  /** A remote profile's wire: Laneway's `/api` when absent, or a Flow server's (FLOW-WIRE.md). */
  wire?: 'laneway' | 'flow';
  url: string | null;
  username: string | null;
}

interface ProfilesFile {
  active_id: string;
  profiles: StoredProfile[];
}

export const EMBEDDED_PROFILE_ID = 'local';

/** Checks and normalises a remote service origin; a Flow server keeps its base path (`.../api`). */
export function normaliseServiceUrl(raw: string, wire: 'laneway' | 'flow' = 'laneway'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`Not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('A service URL must be http or https');
  if (wire === 'flow') return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  // The service's base URL is the origin; a pasted .../api is tolerated.
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/api$/, '')}`;
}

/**
 * A profile's service must be one the page may reach: the renderer's Content-Security-Policy
 * names it (browser/csp.ts), and CSP's grammar has no IPv6 literals, so Chromium would drop
 * the source and every request would fail. (The CLI reaches such a service; only the page cannot.)
 */
export function refuseUnnameableHost(url: string): void {
  const { hostname } = new URL(url);
  if (hostname.startsWith('[')) {
    throw new Error(
      `Laneway cannot reach a service by an IPv6 address (${hostname}): the app's security policy can only name it by host name or IPv4 address. Give the service a name (DNS or /etc/hosts) and use that.`,
    );
  }
}

export class ProfileStore {
  private data: ProfilesFile;
  private readonly path: string;

  constructor(stateDir: string) {
    this.path = join(stateDir, 'profiles.json');
    this.data = this.load();
  }

  /** Every profile, marked active or not. */
  list(): ProfileList {
    return {
      active_id: this.data.active_id,
      profiles: this.data.profiles.map((p): Profile => ({ ...p, active: p.id === this.data.active_id })),
    };
  }

  active(): StoredProfile {
    return this.get(this.data.active_id);
  }

  get(id: string): StoredProfile {
    const found = this.data.profiles.find((p) => p.id === id);
    if (!found) throw new Error(`No profile ${id}`);
    return found;
  }

  /** Adds a remote profile (the embedded one exists already). */
  add(input: { name: string; kind: 'embedded' | 'remote'; wire?: 'laneway' | 'flow'; url?: string }): StoredProfile {
    if (input.kind === 'embedded') throw new Error('The embedded service has its profile already');
    if (!input.url) throw new Error('A remote profile needs a URL');
    const wire = input.wire ?? 'laneway';
    const url = normaliseServiceUrl(input.url, wire);
    refuseUnnameableHost(url);
    const profile: StoredProfile = {
      id: randomUUID(),
      name: input.name,
      kind: 'remote',
      ...(wire === 'flow' ? { wire } : {}),
      url,
      username: null,
    };
    this.data.profiles.push(profile);
    this.save();
    return profile;
  }

  setActive(id: string): void {
    this.get(id);
    this.data.active_id = id;
    this.save();
  }

  setUsername(id: string, username: string | null): void {
    this.get(id).username = username;
    this.save();
  }

  remove(id: string): void {
    if (id === EMBEDDED_PROFILE_ID) throw new Error('The embedded profile cannot be removed');
    this.get(id);
    this.data.profiles = this.data.profiles.filter((p) => p.id !== id);
    if (this.data.active_id === id) this.data.active_id = EMBEDDED_PROFILE_ID;
    this.save();
  }

  private load(): ProfilesFile {
    const fallback: ProfilesFile = {
      active_id: EMBEDDED_PROFILE_ID,
      profiles: [{ id: EMBEDDED_PROFILE_ID, name: 'This computer', kind: 'embedded', url: null, username: null }],
    };
    if (!existsSync(this.path)) return fallback;
    const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as ProfilesFile;
    if (!parsed.profiles.some((p) => p.id === EMBEDDED_PROFILE_ID)) parsed.profiles.unshift(fallback.profiles[0]!);
    return parsed;
  }

  private save(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(`${this.path}.tmp`, JSON.stringify(this.data, null, 2));
    renameSync(`${this.path}.tmp`, this.path);
  }
}
