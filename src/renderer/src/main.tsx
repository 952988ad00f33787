/** Renderer entry: connects the desktop API (IPC in Electron, WebSocket in browser mode) and mounts the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { connectDesktopApi } from './desktop/connect';
import { createServiceClient, type CoreRoute } from './service-client/http-client';
import { createRediscovery } from './service-client/rediscover';
import { screensBaseUrl } from './service-client/screens-address';
import { createTokenSource } from './service-client/token-source';
import { useAppStore } from './store';
import './ui/base.css';

// Browser mode opens with the launch token in the address; the host has already set it as an
// HttpOnly cookie, so it leaves the address bar (and history, bookmarks, screenshots) at once.
const url = new URL(window.location.href);
if (url.searchParams.has('token')) {
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

const { api, link } = connectDesktopApi();
const tokens = createTokenSource(api);
const coreRoute: CoreRoute = {
  read: (path) => api.service.read({ path }),
  send: (method, path, body) => api.service.send({ method, path, ...(body !== undefined ? { body } : {}) }),
  async download(path) {
    const file = await api.service.download({ path });
    const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
    return { blob: new Blob([bytes]), filename: file.filename };
  },
};
const client = createServiceClient({
  // The active profile's origin from the last token, else its own (screens-address.ts).
  baseUrl: () => {
    const { profiles, serviceStatus } = useAppStore.getState();
    return screensBaseUrl(tokens.baseUrl(), profiles, serviceStatus?.url ?? null);
  },
  accessToken: (fresh) => tokens.token(fresh),
  onReachable: (ok) => useAppStore.getState().setServiceReachable(ok),
  rediscover: createRediscovery(api, tokens),
  // A Flow server's profile: the core translates its wire, so the screens go through the core.
  throughCore: () => {
    const { profiles } = useAppStore.getState();
    const flow = profiles?.profiles.find((p) => p.id === profiles.active_id)?.wire === 'flow';
    return flow ? coreRoute : null;
  },
});
link.onChange((connected) => useAppStore.getState().setDesktopConnected(connected));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App services={{ api, link, client, tokens }} />
  </StrictMode>,
);
