/**
 * Electron main entry: the shell. It builds the desktop core (plain Node code) with an
 * Electron utilityProcess launching the embedded service, registers the IPC transport and
 * opens the window. Everything else lives in ./core.
 */
import { app } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDesktopCore, defaultUserDataDir, serviceDataDir } from './core/index';
import { pickFolder } from './shell/folder-picker';
import { registerIpc } from './shell/ipc';
import { showNativeNotifications } from './shell/native-notifications';
import { safeStorageCandidate } from './shell/safe-storage-token-store';
import { utilityServiceLauncher } from './shell/utility-service-launcher';
import { createMainWindow, hardenContents } from './shell/window';

const here = dirname(fileURLToPath(import.meta.url));

app.enableSandbox();
if (!app.requestSingleInstanceLock()) app.quit();

const home = process.env.LANEWAY_HOME ?? (app.isPackaged ? app.getPath('userData') : defaultUserDataDir());
const core = createDesktopCore({
  serviceDataDir: serviceDataDir(home),
  stateDir: home,
  launcher: utilityServiceLauncher(join(here, 'service.js')),
  shell: 'electron',
  extraTokenStores: [safeStorageCandidate(home)],
  pickFolder,
});

app.on('web-contents-created', (_event, contents) => hardenContents(contents));

void app.whenReady().then(async () => {
  const window = createMainWindow(
    join(here, '../preload/index.cjs'),
    join(here, '../renderer/index.html'),
    core.rendererCsp,
  );
  registerIpc(core.dispatcher, () => [window]);
  showNativeNotifications(core.dispatcher, () => window);
  await core.start().catch((err: unknown) => console.error('Laneway: the local service failed to start', err));
});

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting) return;
  event.preventDefault();
  quitting = true;
  void core.stop().finally(() => app.quit());
});
app.on('window-all-closed', () => app.quit());
