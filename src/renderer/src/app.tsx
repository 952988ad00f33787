/** The application frame: header with the service status, then the current screen. */
import { useEffect } from 'react';
import type { DesktopApi } from '../../shared/desktop-api/client';
import { ServiceStatusBadge } from './features/status/service-status-badge';
import { useAppStore } from './store';

export function App({ api }: { api: DesktopApi }) {
  const setServiceStatus = useAppStore((s) => s.setServiceStatus);
  const setAppInfo = useAppStore((s) => s.setAppInfo);
  const appInfo = useAppStore((s) => s.appInfo);

  useEffect(() => {
    void api.app.version().then(setAppInfo);
    void api.service.status().then(setServiceStatus);
    return api.on('service:status-changed', setServiceStatus);
  }, [api, setAppInfo, setServiceStatus]);

  return (
    <div className="app">
      <header className="app-header">
        <h1 className="brand">Laneway</h1>
        <ServiceStatusBadge />
        {appInfo && (
          <span className="muted" data-testid="app-version">
            v{appInfo.version} · {appInfo.shell === 'browser' ? 'browser mode' : 'desktop'}
          </span>
        )}
      </header>
      <main className="app-main" />
    </div>
  );
}
