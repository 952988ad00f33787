/**
 * The main window with Electron's security defaults: context isolation, sandbox, no Node in
 * the renderer, a strict CSP, no navigation away and no new windows.
 */
import { BrowserWindow, session, shell, type WebContents } from 'electron';
import { pathToFileURL } from 'node:url';

/** `csp` is asked at each load: the core's policy (loopback and the configured remote services). */
export function createMainWindow(preload: string, indexHtml: string, csp: () => string): BrowserWindow {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp()] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, permission, allow) => allow(permission === 'notifications'));
  const window = new BrowserWindow({
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    title: 'Laneway',
    show: false,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(pathToFileURL(indexHtml).href);
  return window;
}

/** Denies navigation and window.open for every web contents; external links open in the OS browser. */
export function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
}
