/** Renderer entry: connects the desktop API (IPC in Electron, WebSocket in browser mode) and mounts the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { connectDesktopApi } from './desktop/connect';
import { createServiceClient } from './service-client/http-client';
import { createRediscovery } from './service-client/rediscover';
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
const client = createServiceClient({
  // The active profile's origin from the last token, else the embedded service's URL.
  baseUrl: () => tokens.baseUrl() ?? useAppStore.getState().serviceStatus?.url ?? null,
  accessToken: (fresh) => tokens.token(fresh),
  onReachable: (ok) => useAppStore.getState().setServiceReachable(ok),
  rediscover: createRediscovery(api, tokens),
  // A Flow server's profile: the core translates its wire, so the screens read through the core.
  readThroughCore: (path) => {
    const { profiles } = useAppStore.getState();
    const flow = profiles?.profiles.find((p) => p.id === profiles.active_id)?.wire === 'flow';
    return flow ? api.service.read({ path }) : null;
  },
});
link.onChange((connected) => useAppStore.getState().setDesktopConnected(connected));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App services={{ api, link, client, tokens }} />
  </StrictMode>,
);
