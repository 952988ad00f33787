/** Sign-in actions over the desktop API, keeping the store and the token cache in step. */
import { useCallback } from 'react';
import type { AuthStatus } from '../../../../shared/desktop-api/contract';
import { useAppStore } from '../../store';
import { HOME } from '../../store/route';
import { useServices } from '../../service-client/services-context';

function isLoopback(url: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Wraps an auth call: clears the cached token and stores the new status. */
export function useSessionActions() {
  const { api, tokens } = useServices();
  const setAuth = useAppStore((s) => s.setAuth);
  const setProfiles = useAppStore((s) => s.setProfiles);
  const navigate = useAppStore((s) => s.navigate);
  const apply = useCallback(
    async (call: Promise<AuthStatus>) => {
      const status = await call;
      tokens.clear();
      // The core records on each profile who signed in there: the Services list must show the
      // account just signed in, not the one before.
      setProfiles(await api.profiles.list());
      setAuth(status);
      return status;
    },
    [api, tokens, setAuth, setProfiles],
  );
  return {
    login: (username: string, password: string) => apply(api.auth.login({ username, password })),
    setup: (p: { username: string; password: string; email: string; name: string }) => apply(api.auth.setup(p)),
    async logout() {
      const status = await apply(api.auth.logout());
      // The next sign-in, perhaps another account's, starts at home: the screen left behind
      // (an execution, a sample of the account before) is not the next account's to open.
      navigate(HOME.screen, HOME.params);
      return status;
    },
    async switchProfile(id: string) {
      setProfiles(await api.profiles.switch({ id }));
      await apply(api.auth.status());
    },
    async addRemote(name: string, url: string, wire: 'laneway' | 'flow' = 'laneway') {
      await api.profiles.add({ name, kind: 'remote', url, activate: true, ...(wire === 'flow' ? { wire } : {}) });
      // The page's Content-Security-Policy allows loopback and the remote services configured
      // when it loaded: a new remote origin is reachable once the page loads again.
      if (!isLoopback(url)) return window.location.reload();
      setProfiles(await api.profiles.list());
      await apply(api.auth.status());
    },
    async removeProfile(id: string) {
      setProfiles(await api.profiles.remove({ id }));
      await apply(api.auth.status());
    },
  };
}
