/**
 * The active service profile and its session: which URL the core talks to (the embedded
 * service's current URL, or the remote one), the signed-in account, and switching between
 * profiles without a restart. Emits auth and profile changes for the renderer.
 */
import type {
  AccessToken,
  AuthStatus,
  EventName,
  EventPayload,
  Me,
  Profile,
  ProfileList,
} from '../../../shared/desktop-api/contract';
import type { NewUserBody } from '../../../shared/service-api/identity';
import { join } from 'node:path';
import { ServiceClient } from '../service-client/service-client';
import { FlowServiceClient } from '../service-client/flow/flow-service-client';
import { FlowState } from '../service-client/flow/flow-state';
import type { UploadIntents } from '../service-client/flow/flow-uploads';
import { ServiceError } from '../../../shared/service-client/service-error';
import { ProfileStore, type StoredProfile } from './profiles';
import { Session } from './session';
import type { ChosenStore } from './token-store';
import { getHealth, postSetup } from '../../../shared/service-api/endpoints';

export interface SessionManagerOptions {
  stateDir: string;
  tokenStore: ChosenStore;
  /** The embedded service's URL while it runs, else null. */
  embeddedUrl: () => string | null;
  emit?: <E extends EventName>(event: E, payload: EventPayload<E>) => void;
  now?: () => number;
  /** What the upload queue knows of a file, for a Flow profile's uploads (uploads/flow-intents.ts). */
  flowIntents?: UploadIntents;
}

function unavailable(profile: StoredProfile): ServiceError {
  return new ServiceError({
    code: 'SERVICE_UNAVAILABLE',
    message: `The service of profile ${profile.name} is not running`,
    status: null,
    retryable: true,
  });
}

export class SessionManager {
  readonly profiles: ProfileStore;
  private session: Session;
  private clients: { url: string; anon: ServiceClient; authed: ServiceClient } | null = null;
  private needsSetup: boolean | null = null;

  constructor(private readonly options: SessionManagerOptions) {
    this.profiles = new ProfileStore(options.stateDir);
    this.session = this.newSession(this.profiles.active());
  }

  /** Loads the active profile's stored refresh token. */
  async init(): Promise<void> {
    await this.session.restore(this.profiles.active().username);
  }

  /** The active profile's base URL, or null while its service is not running. */
  baseUrl(): string | null {
    const p = this.profiles.active();
    return p.kind === 'embedded' ? this.options.embeddedUrl() : p.url;
  }

  /** The authenticated client of the active profile (null while its service is down). */
  client(): ServiceClient | null {
    return this.ensureClients()?.authed ?? null;
  }

  activeProfileId(): string {
    return this.profiles.active().id;
  }

  /**
   * As `status`, having asked the service whether it still has no account when that is not known
   * yet (a fresh profile, signed out): the first screen then offers the first account only where
   * one can be made. A service that does not say (another service of the spec, a Flow service) or
   * does not answer leaves it unknown, as before.
   */
  async statusNow(): Promise<AuthStatus> {
    const clients = this.ensureClients();
    if (this.needsSetup === null && !this.session.signedIn && clients && this.profiles.active().wire !== 'flow') {
      // Asked once, briefly: an unreachable service must not hold the first screen.
      const health = await clients.anon
        .call(getHealth, { anonymous: true, signal: AbortSignal.timeout(5_000) })
        .catch(() => null);
      // Only "an account exists" is kept: while none does, one may be made at any moment by
      // someone else (`laneway users add`), so the next question asks again.
      if (health?.setup_open === false && this.clients === clients) this.needsSetup = false;
      if (health?.setup_open === true) return { ...this.status(), needs_setup: true };
    }
    return this.status();
  }

  status(): AuthStatus {
    return {
      profile_id: this.profiles.active().id,
      signed_in: this.session.signedIn,
      user: this.session.user,
      needs_setup: this.needsSetup,
      token_store: this.options.tokenStore.store.kind,
      token_store_note: this.options.tokenStore.note,
    };
  }

  async login(username: string, password: string): Promise<AuthStatus> {
    this.requireClients();
    await this.session.login(username, password);
    this.profiles.setUsername(this.activeProfileId(), username);
    this.needsSetup = false;
    return this.changed();
  }

  async logout(): Promise<AuthStatus> {
    await this.session.logout();
    return this.changed();
  }

  /** Creates the first account, then signs in as it. */
  async setup(input: NewUserBody): Promise<AuthStatus> {
    const { anon } = this.requireClients();
    try {
      await anon.call(postSetup, { body: input, anonymous: true });
    } catch (err) {
      if (err instanceof ServiceError && err.status === 409) this.needsSetup = false;
      throw err;
    }
    return this.login(input.username, input.password);
  }

  async me(): Promise<Me> {
    this.requireClients();
    const me = await this.session.me();
    this.session.user = me;
    return me;
  }

  /** A valid access token for the renderer's own calls. */
  async accessToken(): Promise<AccessToken> {
    const url = this.requireClients().url;
    const token = await this.session.token();
    return {
      token,
      expires_at: new Date(this.session.accessExpiresAt ?? Date.now()).toISOString(),
      api_url: `${url}/api`,
    };
  }

  listProfiles(): ProfileList {
    return this.profiles.list();
  }

  addProfile(input: {
    name: string;
    kind: 'embedded' | 'remote';
    wire?: 'laneway' | 'flow';
    url?: string;
    activate?: boolean;
  }): Promise<Profile> | Profile {
    const p = this.profiles.add(input);
    if (input.activate) return this.switchProfile(p.id).then(() => this.presentProfile(p.id));
    this.options.emit?.('profiles:changed', this.profiles.list());
    return this.presentProfile(p.id);
  }

  /** Makes another profile active: a new session for it, no restart. */
  async switchProfile(id: string): Promise<ProfileList> {
    this.profiles.setActive(id);
    this.session = this.newSession(this.profiles.active());
    await this.session.restore(this.profiles.active().username);
    void this.dropClients();
    this.needsSetup = null;
    this.changed();
    this.options.emit?.('profiles:changed', this.profiles.list());
    return this.profiles.list();
  }

  async removeProfile(id: string): Promise<ProfileList> {
    const p = this.profiles.get(id);
    if (p.username) await this.options.tokenStore.store.delete(keychainService(p), p.username);
    const wasActive = this.activeProfileId() === id;
    this.profiles.remove(id);
    if (wasActive) await this.switchProfile(this.activeProfileId());
    this.options.emit?.('profiles:changed', this.profiles.list());
    return this.profiles.list();
  }

  async close(): Promise<void> {
    await this.dropClients();
  }

  private presentProfile(id: string): Profile {
    return this.profiles.list().profiles.find((p) => p.id === id)!;
  }

  private changed(): AuthStatus {
    const status = this.status();
    this.options.emit?.('auth:changed', status);
    return status;
  }

  private newSession(profile: StoredProfile): Session {
    return new Session({
      keychainService: keychainService(profile),
      store: this.options.tokenStore.store,
      client: () => this.requireClients().anon,
      now: this.options.now,
      onChange: () => this.changed(),
    });
  }

  private requireClients(): { url: string; anon: ServiceClient; authed: ServiceClient } {
    const c = this.ensureClients();
    if (!c) throw unavailable(this.profiles.active());
    return c;
  }

  private ensureClients(): { url: string; anon: ServiceClient; authed: ServiceClient } | null {
    const url = this.baseUrl();
    if (!url) return null;
    if (this.clients?.url !== url) {
      void this.dropClients();
      const auth = { token: () => this.session.token(), invalidate: (t: string) => this.session.invalidate(t) };
      const profile = this.profiles.active();
      if (profile.wire === 'flow') {
        // One memory per profile: the Flow ids of uploads in progress survive a crash.
        const state = new FlowState(join(this.options.stateDir, 'flow', `${profile.id}.json`));
        const intents = this.options.flowIntents;
        this.clients = {
          url,
          anon: new FlowServiceClient({ baseUrl: url, state, intents }),
          authed: new FlowServiceClient({ baseUrl: url, auth, state, intents }),
        };
      } else {
        this.clients = {
          url,
          anon: new ServiceClient({ baseUrl: url }),
          authed: new ServiceClient({ baseUrl: url, auth }),
        };
      }
    }
    return this.clients;
  }

  private async dropClients(): Promise<void> {
    const c = this.clients;
    this.clients = null;
    if (c) await Promise.all([c.anon.close(), c.authed.close()]).catch(() => undefined);
  }
}

/** Keychain service name of a profile: one entry per profile and account. */
export function keychainService(profile: StoredProfile): string {
  return `Laneway (${profile.kind === 'embedded' ? 'local' : profile.url})`;
}
