/** Who is signed in on which profile, and where the token is kept, as the desktop core says. */
import type { StateCreator } from 'zustand';
import type { AuthStatus, ProfileList } from '../../../shared/desktop-api/contract';

export interface SessionSlice {
  auth: AuthStatus | null;
  profiles: ProfileList | null;
  /** Set when the core could not answer `auth:status` (the first-run screen shows it). */
  authError: string | null;
  setAuth(auth: AuthStatus): void;
  setProfiles(profiles: ProfileList): void;
  setAuthError(message: string | null): void;
}

export const createSessionSlice: StateCreator<SessionSlice, [], [], SessionSlice> = (set) => ({
  auth: null,
  profiles: null,
  authError: null,
  setAuth: (auth) => set({ auth, authError: null }),
  setProfiles: (profiles) => set({ profiles }),
  setAuthError: (authError) => set({ authError }),
});
